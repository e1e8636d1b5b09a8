import { afterAll, beforeAll, describe } from 'vitest';
import { startPipeChat } from '../console/pipe-chat.js';
import { startConsoleLiveStack, type LiveStack } from './live-stack.js';
import { repeatScenarios, type RepeatSurface } from './repeat-scenarios.js';

/**
 * Issue 28's scenarios in the terminal chat: the real core and tracking engine on real Redis, the
 * sandbox on a ManualClock; pushed cards print on the chat's own screen (same button numbers).
 * The terminal chat is a private chat only: the group step does not apply.
 */
let live: LiveStack;
let c: ReturnType<typeof startPipeChat>;

beforeAll(async () => {
  const stack = await startConsoleLiveStack('console-repeat');
  live = stack.live;
  c = startPipeChat({ core: live.core }, { userId: 'repeat-user' });
  stack.attach(c.chat);
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
