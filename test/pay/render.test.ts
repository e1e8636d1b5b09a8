import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/contracts/reply.js';
import { renderReply } from '../../src/platforms/telegram/render.js';

/** Telegram refuses a web_app button outside a private chat and any non-https one: the adapter never sends either. */
const card = (url: string): Reply => ({
  lines: [[{ kind: 'text', text: 'Deposit' }]],
  target: 'dm',
  buttons: [[{ kind: 'webapp', label: 'Pay from wallet', url }]],
});
const keyboard = (r: ReturnType<typeof renderReply>) => r.messages[0]?.markup;

describe('a Pay from wallet button on Telegram', () => {
  it('is a web_app button in a private chat', () => {
    expect(keyboard(renderReply(card('https://bot.example.com/pay/?swap=1'), { privateChat: true }))).toEqual({
      inline_keyboard: [[{ text: 'Pay from wallet', web_app: { url: 'https://bot.example.com/pay/?swap=1' } }]],
    });
  });

  it('is left out in a group or channel, and when its URL is not https', () => {
    expect(keyboard(renderReply(card('https://bot.example.com/pay/?swap=1'), { privateChat: false }))).toBeUndefined();
    expect(keyboard(renderReply(card('http://bot.example.com/pay/?swap=1'), { privateChat: true }))).toBeUndefined();
  });
});
