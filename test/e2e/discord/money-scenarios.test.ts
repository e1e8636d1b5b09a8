import { describe, it } from 'vitest';
import type { Where } from './fake-discord.js';
import type { InteractionState, StoredMessage } from './fake-world.js';
import { answerOf, buttonId, buttonLabels, componentsOf, embedText, titleOf, unescape, useLiveDiscord } from './harness.js';
import { waitFor } from '../../support/wait.js';
import {
  EVM_DEST,
  EVM_REFUND,
  MONEY_SCENARIOS,
  runMoneyScenario,
  type CreateSpec,
  type MoneySurface,
  type Shown,
} from '../../support/money-scenarios.js';

/**
 * The money scenarios (test/support/money-scenarios.ts) on Discord: the real discord.js client and
 * DiscordMessenger against the fake Discord, each scenario a user of their own making the swap in
 * their DMs (slash command, buttons, modals), the tracking engine editing the deposit card and the
 * live card there. What the user was shown is every message in the DM and every body it had.
 */
const h = useLiveDiscord('dc-money-scenarios');

/** Markdown as the user reads it: bold, italics and code marks are not text. */
const rendered = (md: string): string => md.replace(/\*\*|`/g, '').replace(/(^|\s)_(.+?)_(?=\s|$)/gm, '$1$2');

/** One body of a message as the user read it (text, buttons, and whether it carried the QR). */
function shown(m: StoredMessage, body: StoredMessage['body']): Shown {
  const version = { ...m, body };
  return {
    text: rendered(unescape(embedText(version))),
    buttons: buttonLabels(version),
    // The deposit card's QR: a thumbnail or a media gallery in the Components V2 card.
    qr: componentsOf(version).some((c) => c.type === 11 || c.type === 12),
  };
}

let nextUser = 0;

function discordSurface(): MoneySurface {
  const n = nextUser++;
  const user = h.fake.world.addUser({ id: `23000000000000000${String(n).padStart(2, '0')}`, username: `money${n}` });
  const where: Where = { user };
  const dm = h.fake.world.dmChannel(user.id).id;
  const inDm = () => h.fake.messagesIn(dm);

  /** What an interaction led to: a modal, or the message it answered with or updated. */
  async function outcome(
    it: InteractionState,
    pressed?: StoredMessage,
    versions = 0,
  ): Promise<{ modal: InteractionState } | { message: StoredMessage }> {
    await waitFor(() => it.callbacks[0], `an answer to interaction ${it.id}`);
    if (it.modal) return { modal: it };
    if (!pressed) return { message: await answerOf(h.fake, it) };
    return {
      message: await waitFor(() => {
        if (pressed.history.length > versions) return pressed;
        const other = it.originalId && it.originalId !== pressed.id ? h.fake.message(it.originalId) : undefined;
        return other && !other.loading ? other : undefined;
      }, 'the wizard to move on'),
    };
  }
  const press = async (m: StoredMessage, label: string) => outcome(h.fake.pressButton(where, m, buttonId(m, label)), m, m.history.length);

  return {
    live: h.live,
    async create(spec: CreateSpec) {
      let modals = 0;
      let step = await outcome(h.fake.slashCommand(where, 'swap', spec.slash));
      for (let i = 0; i < 12; i++) {
        if ('modal' in step) {
          // The first free text asked is the destination address, a second one the refund address.
          step = await outcome(h.fake.submitModal(where, step.modal, modals++ === 0 ? EVM_DEST : EVM_REFUND));
          continue;
        }
        const m = step.message;
        const labels = buttonLabels(m);
        if (labels.includes('Confirm')) {
          const before = new Set(inDm().map((x) => x.id));
          h.fake.pressButton(where, m, buttonId(m, 'Confirm'));
          const deposit = await waitFor(
            () => inDm().find((x) => !before.has(x.id) && unescape(titleOf(x)).startsWith('Deposit for swap')),
            'the deposit card in DMs',
          );
          return /Swap id: `?([0-9a-f-]{36})/.exec(unescape(embedText(deposit)))![1]!;
        }
        const edit = labels.find((l) => l.startsWith('✏️'));
        if (spec.pick && labels.includes(spec.pick)) step = await press(m, spec.pick);
        else if (labels.includes('Skip (no refund address)'))
          step = await press(m, spec.refund && edit ? edit : 'Skip (no refund address)');
        else if (labels.includes('No refuel')) step = await press(m, spec.refuel ? 'Yes, refuel' : 'No refuel');
        else if (edit) step = await press(m, edit);
        else throw new Error(`the wizard is stuck at: ${embedText(m)} [${labels.join(', ')}]`);
      }
      throw new Error('the wizard did not reach Confirm');
    },
    async sentIt(_swapId: string, hash?: string) {
      const card = [...inDm()].reverse().find((x) => buttonLabels(x).includes("I've sent it"))!;
      const step = await press(card, "I've sent it");
      if ('modal' in step) await outcome(h.fake.submitModal(where, step.modal, hash ?? 'skip'));
    },
    async status(swapId: string) {
      await answerOf(h.fake, h.fake.slashCommand(where, 'status', { swap_id: swapId }));
    },
    async history() {
      await answerOf(h.fake, h.fake.slashCommand(where, 'history'));
    },
    mark: () => new Map(inDm().map((m) => [m.id, m.history.length])),
    since(mark) {
      const seen = mark as Map<string, number>;
      return inDm().flatMap((m) => m.history.slice(seen.has(m.id) ? seen.get(m.id)! : 0).map((b) => shown(m, b)));
    },
    statusCard(swapId: string) {
      // The live card is the first one, sent as the swap was made and edited since (a /status answer is a snapshot).
      const m = inDm().find(
        (x) => unescape(titleOf(x)).startsWith(`Swap ${swapId.slice(0, 8)}: `) && unescape(embedText(x)).includes('Next:'),
      );
      return m ? shown(m, m.body) : undefined;
    },
  };
}

describe('what the bot tells you about your money, on Discord', () => {
  for (const s of MONEY_SCENARIOS) {
    it(s.name, async () => {
      await runMoneyScenario(discordSurface(), s);
    });
  }
});
