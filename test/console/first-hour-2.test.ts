import { describe, expect, test } from 'vitest';
import { useHarness } from '../bot/support/conversation.js';
import { startPipeChat } from './pipe-chat.js';

/** Issue 34's first hour in the terminal chat (the real core, the sandbox, real Redis). */
const h = useHarness();

describe('terminal chat: /help', () => {
  test('says how to quit, after the command list, in the chat language', async () => {
    const c = startPipeChat(h, { userId: `fh2-${Math.random()}` });
    const help = await c.says('/help', 'To quit: Ctrl-D ends your input');
    expect(help.indexOf('/quote <amount>')).toBeLessThan(help.indexOf('To quit:'));
    c.end();
    await c.chat.done;
    const ru = startPipeChat(h, { userId: `fh2-${Math.random()}`, locale: 'ru' });
    await ru.says('/help', 'Выход: Ctrl-D завершает ввод');
    ru.end();
    await ru.chat.done;
  });
});
