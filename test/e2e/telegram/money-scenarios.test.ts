import { describe, it } from 'vitest';
import type { StoredMessage } from './fake-rules.js';
import { newUser } from './harness.js';
import { parseTelegramHtml } from './telegram-html.js';
import { TgUser, useWorld } from './world.js';
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
 * The money scenarios (test/support/money-scenarios.ts) on Telegram: real grammY against the fake
 * Bot API, the tracking engine pushing through the TelegramMessenger, the sandbox on a
 * ManualClock. What the user was shown is every message in their private chat and every version
 * an edit gave it (the deposit card's caption, buttons and picture included).
 */
const world = useWorld('tg-money-scenarios');

const forceReply = (u: TgUser, after = 0): Promise<StoredMessage> =>
  waitFor(
    () => [...u.messages()].reverse().find((m) => m.message_id > after && m.markup !== undefined && 'force_reply' in m.markup),
    'a ForceReply prompt',
  );

const labels = (markup: unknown): string[] =>
  (((markup as { inline_keyboard?: unknown } | undefined)?.inline_keyboard ?? []) as Array<Array<{ text: string }>>)
    .flat()
    .map((b) => b.text);
const plain = (html: string): string => {
  const r = parseTelegramHtml(html);
  return r.ok ? r.text : html;
};

function telegramSurface(name: string): MoneySurface {
  const user = newUser(name);
  const u = new TgUser(world.fake, user, world.fake.privateChat(user));
  let qr: Uint8Array | undefined;
  let depositCardId = 0;
  const newest = () => u.messages().at(-1)?.message_id ?? 0;
  /** Each content a message showed, oldest first (earlier versions, then the current one). */
  const contents = (m: StoredMessage): Shown[] => [
    ...m.versions.map((v) => ({ text: plain(v.html), buttons: labels(v.markup) })),
    {
      text: m.text ?? m.caption ?? '',
      buttons: labels(m.markup),
      qr:
        m.message_id === depositCardId &&
        qr !== undefined &&
        m.photoBytes !== undefined &&
        Buffer.from(m.photoBytes).equals(Buffer.from(qr)),
    },
  ];
  return {
    live: world,
    async create(spec: CreateSpec) {
      let at = newest();
      u.says(`/swap ${spec.line}`);
      if (spec.pick) {
        await waitFor(
          () => u.messages().some((m) => m.message_id > at && labels(m.markup).includes(spec.pick!)),
          `the ${spec.pick} button`,
        );
        at = newest();
        await u.presses(spec.pick);
      }
      u.says(EVM_DEST, { replyTo: (await forceReply(u, at)).message_id });
      await u.sees('for refunds');
      at = newest();
      if (spec.refund) {
        // The refund question is a prompt of its own: the address is its answer.
        u.says(EVM_REFUND, { replyTo: (await forceReply(u, at - 1)).message_id });
      } else await u.presses('Skip (no refund address)');
      const next = await u.sees(/Confirm your swap|Refuel/);
      if (!/Confirm your swap/.test(next.text ?? '')) await u.presses(spec.refuel ? 'Yes, refuel' : 'No refuel');
      await u.sees('Confirm your swap');
      at = newest();
      await u.presses('Confirm');
      const deposit = await waitFor(() => u.messages().find((m) => m.message_id > at && m.photoSize), 'the deposit card');
      qr = deposit.photoBytes;
      depositCardId = deposit.message_id;
      return /Swap id: ([0-9a-f-]{36})/.exec(deposit.caption ?? '')![1]!;
    },
    async sentIt(_swapId: string, hash?: string) {
      const at = newest();
      await u.presses("I've sent it");
      const answer = await waitFor(() => u.messages().find((m) => m.message_id > at), 'the answer to "I\'ve sent it"');
      if (answer.markup && 'force_reply' in answer.markup) {
        const before = newest();
        u.says(hash ?? 'skip', { replyTo: answer.message_id });
        await waitFor(() => newest() > before, 'the answer to "skip"');
      }
    },
    async status(swapId: string) {
      const at = newest();
      u.says(`/status ${swapId}`);
      await waitFor(
        () => u.messages().some((m) => m.message_id > at && (m.text ?? m.caption ?? '').includes(swapId.slice(0, 8))),
        'the /status answer',
      );
    },
    async history() {
      const at = newest();
      u.says('/history');
      await waitFor(() => u.messages().some((m) => m.message_id > at && (m.text ?? '').includes('→')), 'the /history answer');
    },
    mark: () => ({ newest: newest(), versions: new Map(u.messages().map((m) => [m.message_id, m.versions.length])) }),
    since(mark) {
      const { newest: top, versions } = mark as { newest: number; versions: Map<number, number> };
      return u.messages().flatMap((m) => (m.message_id > top ? contents(m) : contents(m).slice((versions.get(m.message_id) ?? 0) + 1)));
    },
    statusCard(swapId: string) {
      // The live card is the first one, sent as the swap was made and edited since (a /status answer is a snapshot).
      const m = u.messages().find((x) => (x.text ?? '').startsWith(`Swap ${swapId.slice(0, 8)}: `) && (x.text ?? '').includes('Next:'));
      return m ? { text: m.text ?? '', buttons: labels(m.markup) } : undefined;
    },
  };
}

describe('what the bot tells you about your money, on Telegram', () => {
  MONEY_SCENARIOS.forEach((s, i) => {
    it(s.name, async () => {
      await runMoneyScenario(telegramSurface(`Money${i}`), s);
    });
  });
});
