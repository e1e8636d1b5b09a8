import { describe } from 'vitest';
import type { StoredMessage } from './fake-rules.js';
import { newGroup, newUser } from './harness.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';
import { repeatScenarios, type RepeatSurface } from '../repeat-scenarios.js';

/** Issue 28's scenarios through Telegram: grammY against the fake Bot API, the live stack behind it. */
const world = useWorld('tg-repeat');

const textOf = (m: StoredMessage) => m.text ?? m.caption ?? '';
/** What a user sees of a message: its text and its buttons' labels. */
const visible = (m: StoredMessage) =>
  [textOf(m), ...((m.markup?.inline_keyboard ?? []) as Array<Array<{ text?: string }>>).flat().map((b) => `[${b.text ?? ''}]`)].join('\n');

/** Runs `act`, then waits for a bot message in the chat, new or edited since, whose text matches. */
async function after(u: TgUser, act: () => unknown, until: string | RegExp): Promise<string> {
  const before = new Map(u.messages().map((m) => [m.message_id, m.versions.length]));
  await act();
  const matches = (m: StoredMessage) => (typeof until === 'string' ? visible(m).includes(until) : until.test(visible(m)));
  const m = await waitFor(
    () => u.messages().find((x) => (before.get(x.message_id) ?? -1) < x.versions.length && matches(x)),
    `"${String(until)}" in chat ${u.chat.id}`,
  ).catch((e: unknown) => {
    throw new Error(
      `${(e as Error).message}; the chat:\n${u
        .messages()
        .slice(-5)
        .map((x) => `#${x.message_id} v${x.versions.length}: ${textOf(x)}`)
        .join('\n')}`,
    );
  });
  return visible(m);
}

let surface: RepeatSurface | undefined;
function tgSurface(): RepeatSurface {
  if (surface) return surface;
  const user = newUser('Rita');
  const u = new TgUser(world.fake, user, world.fake.privateChat(user));
  const g = new TgUser(world.fake, user, newGroup('Repeaters'));
  surface = {
    live: world,
    me: { platform: 'telegram', chatId: String(u.chat.id), chatKind: 'private' },
    says: (line, until) => after(u, () => u.says(line), until),
    presses: (label, until) => after(u, () => u.presses(label), until),
    answers: (text, until) =>
      after(
        u,
        () => {
          // The question is a ForceReply prompt: answered by replying to it.
          const prompt = [...u.messages()].reverse().find((m) => m.markup !== undefined && 'force_reply' in m.markup);
          u.says(text, prompt ? { replyTo: prompt.message_id } : {});
        },
        until,
      ),
    sees: async (match) => textOf(await u.sees(match)),
    saysInGroup: async (line, until) => {
      const from = g.messages().length;
      await after(g, () => g.says(line), until);
      return g.messages().slice(from).map(textOf).join('\n');
    },
  };
  return surface;
}

describe('Telegram: observed times, Swap again, saved and watched addresses', () => {
  repeatScenarios(tgSurface);
});
