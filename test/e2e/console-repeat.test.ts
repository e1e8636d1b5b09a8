import { afterAll, beforeAll, describe } from 'vitest';
import type { Messenger } from '../../src/contracts/messenger.js';
import type { ConsoleChat } from '../../src/platforms/console/bot.js';
import { startPipeChat } from '../console/pipe-chat.js';
import { startLiveStack, type LiveStack } from './live-stack.js';
import { repeatScenarios, type RepeatSurface } from './repeat-scenarios.js';

/**
 * Issue 28's scenarios in the terminal chat: the real core and tracking engine on real Redis, the
 * sandbox on a ManualClock; pushed cards print on the chat's own screen (same button numbers).
 * The terminal chat is a private chat only: the group step does not apply.
 */
let live: LiveStack;
let c: ReturnType<typeof startPipeChat>;

beforeAll(async () => {
  const box: { chat?: ConsoleChat } = {};
  const proxy: Messenger = {
    platform: 'console',
    send: (target, reply) => box.chat!.messenger.send(target, reply),
    edit: (ref, reply) => box.chat!.messenger.edit(ref, reply),
  };
  live = await startLiveStack('console-repeat', { console: proxy });
  c = startPipeChat({ core: live.core }, { userId: 'repeat-user' });
  box.chat = c.chat;
});

afterAll(async () => {
  c?.chat.close();
  await live?.close();
});

describe('terminal chat: observed times, Swap again, saved and watched addresses', () => {
  repeatScenarios((): RepeatSurface => ({
    live,
    me: { platform: 'console', chatId: c.userId, chatKind: 'private' },
    says: (line, until) => c.says(line, until),
    presses: (label, until) => c.presses(label, until),
    answers: (text, until) => c.says(text, until),
    sees: (match) => c.waitFor(match),
  }));
});
