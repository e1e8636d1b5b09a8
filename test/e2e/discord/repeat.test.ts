import { describe } from 'vitest';
import { COMMANDS } from '../../../src/bot/command-list.js';
import type { Where } from './fake-discord.js';
import type { InteractionState, StoredMessage } from './fake-world.js';
import { buttonId, buttonLabels, embedText, titleOf, unescape, useLiveDiscord } from './harness.js';
import { waitFor } from '../../support/wait.js';
import { repeatScenarios, type RepeatSurface } from '../repeat-scenarios.js';

/**
 * Issue 28's scenarios through Discord: the real discord.js client against the fake Discord, the
 * live stack behind it. A command line becomes the slash command with its options filled in
 * order, as a user picks them; free text (the address) goes into the modal the bot opens.
 */
const h = useLiveDiscord('dc-repeat');

/** What a user sees of a message: title, text and button labels. */
const visible = (m: StoredMessage) => [unescape(titleOf(m)), unescape(embedText(m)), ...buttonLabels(m).map((l) => `[${l}]`)].join('\n');
const matches = (text: string, until: string | RegExp) => (typeof until === 'string' ? text.includes(until) : until.test(text));

/** "/quote 100 USDC A B" as the slash command's options, in declared order (the last string option takes the rest). */
function slash(line: string): { name: string; values: Record<string, string | number> } {
  const [head = '', ...words] = line.trim().split(/\s+/);
  const name = head.slice(1);
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name}`);
  const values: Record<string, string | number> = {};
  command.options.forEach((o, i) => {
    const last =
      i === command.options.length - 1 ||
      (o.type === 'string' && command.options.slice(i + 1).every((n) => !n.required) && words.length > command.options.length);
    const value = last ? words.splice(0).join(' ') : words.shift();
    if (value) values[o.name] = o.type === 'number' ? Number(value) : value;
  });
  return { name, values };
}

let surface: RepeatSurface | undefined;
function dcSurface(): RepeatSurface {
  if (surface) return surface;
  const dm: Where = h.aliceDm;
  const dmChannel = h.fake.world.dmChannel(h.alice.user.id).id;
  /** The interaction that opened a modal not answered yet. */
  let modal: InteractionState | undefined;
  const messages = () => h.fake.messagesIn(dmChannel).filter((m) => !m.loading && !m.deleted);
  const newest = (label: string) => {
    const m = [...messages()].reverse().find((x) => buttonLabels(x).includes(label));
    if (!m) throw new Error(`no button "${label}" in the DM: ${messages().map(visible).join(' | ')}`);
    return m;
  };
  /** Runs `act`, then waits for a DM message, new or edited since, or a modal it opened, that matches. */
  const after = async (act: () => InteractionState | Promise<InteractionState>, until: string | RegExp): Promise<string> => {
    const before = new Map(messages().map((m) => [m.id, m.history.length]));
    const it = await act();
    return waitFor(
      () => {
        if (it.modal && matches(unescape(JSON.stringify(it.modal)), until)) {
          modal = it;
          return JSON.stringify(it.modal);
        }
        const m = messages().find((x) => (before.get(x.id) ?? -1) < x.history.length && matches(visible(x), until));
        return m ? visible(m) : undefined;
      },
      `"${String(until)}" in the DM`,
    ).catch((e: unknown) => {
      const answer = it.originalId ? visible(h.fake.message(it.originalId)) : 'none';
      throw new Error(
        `${(e as Error).message}; callbacks ${JSON.stringify(it.callbacks.map((c) => c.type))}, modal ${JSON.stringify(it.modal ?? null).slice(0, 300)}, answer ${answer}; the DM:\n${messages().slice(-2).map(visible).join('\n---\n')}`,
      );
    });
  };
  surface = {
    live: h.live,
    me: { platform: 'discord', chatId: h.alice.user.id, chatKind: 'private' },
    says: (line, until) =>
      after(() => {
        const { name, values } = slash(line);
        return h.fake.slashCommand(dm, name, values);
      }, until),
    presses: (label, until) =>
      after(() => {
        const m = newest(label);
        return h.fake.pressButton(dm, m, buttonId(m, label));
      }, until),
    answers: (text, until) =>
      after(async () => {
        if (!modal) {
          // The question is a message with a button that opens the modal.
          const m = [...messages()].reverse().find((x) => buttonLabels(x).some((l) => l.startsWith('✏️')));
          if (!m) throw new Error('no question to answer');
          const open = h.fake.pressButton(dm, m, buttonId(m, buttonLabels(m).find((l) => l.startsWith('✏️')) ?? ''));
          modal = await waitFor(() => open.modal && open, 'the modal');
        }
        const shown = modal;
        modal = undefined;
        return h.fake.submitModal(dm, shown, text);
      }, until),
    sees: (match) =>
      waitFor(
        () =>
          messages()
            .map(visible)
            .find((t) => matches(t, match)),
        `"${String(match)}" in the DM`,
      ),
    saysInGroup: async (line, until) => {
      const { name, values } = slash(line);
      let it: InteractionState;
      try {
        it = h.fake.slashCommand(h.alice, name, values);
      } catch (e) {
        // Registered for DMs only (/addresses): a server never offers it.
        if (/is not offered in servers/.test((e as Error).message)) return null;
        throw e;
      }
      return waitFor(
        () => {
          const ids = [it.originalId, ...it.followupIds].filter((id): id is string => Boolean(id));
          const shown = [
            ...ids
              .map((id) => h.fake.message(id))
              .filter((m) => !m.loading)
              .map(visible),
            ...(it.modal ? [unescape(JSON.stringify(it.modal))] : []),
          ].join('\n');
          return matches(shown, until) ? shown : undefined;
        },
        `"${String(until)}" in the server`,
      );
    },
  };
  return surface;
}

describe('Discord: observed times, Swap again, saved and watched addresses', () => {
  repeatScenarios(dcSurface);
});
