import { expect } from 'vitest';
import { moneyText, swapMoney, type Money, type SwapMoney } from '../../src/bot/money/model.js';
import { nextWords } from '../../src/bot/money/words.js';
import type { LiveStack } from '../e2e/live-stack.js';
import { waitFor } from './wait.js';

/**
 * One table of money scenarios (issue 24), driven through every chat surface: the terminal chat,
 * Telegram and Discord each give a small driver (create a swap through their own wizard, press
 * "I've sent it", ask /status, read back what the user was shown), and `runMoneyScenario` plays a
 * scenario on it and checks the whole story with `checkMoneyStory`: every figure agrees with the
 * money model, one name per phase, the last card's next step is the model's, and once the deposit
 * is seen nothing sent or edited tells the user to send (no "Send exactly", no deposit address,
 * no Copy / QR / "I've sent it").
 */

export const EVM_DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
/** The deposit hash a user pastes after "I've sent it". */
const SENT_HASH = '0x9f3c7e21b8a4d6f0c1e2b3a4958677889900aabbccddeeff0011223344556677';
export const EVM_REFUND = '0x52908400098527886E0F7030069857D2E4169EE7';

export interface CreateSpec {
  /** What follows /swap (the terminal chat and Telegram type it; Discord fills the slash options from `slash`). */
  line: string;
  slash: { amount: number; token: string; from: string; to: string };
  /** A network button to press when the wizard asks which network an exchange uses. */
  pick?: string;
  refund?: boolean;
  refuel?: boolean;
}

export type Step =
  /** "I've sent it" on the deposit card, before the service sees anything (pasting the deposit's hash, or skip). */
  | { do: 'sentIt'; hash?: boolean }
  | { do: 'status' }
  /** /history: the swap's line there uses the same figures. */
  | { do: 'history' }
  | { do: 'deposit'; amount?: number; outcome?: 'complete' | 'fail_execution'; late?: boolean }
  /** Moves the sandbox clock by `ms`, `times` times, each time waiting for a poll and the chats. */
  | { do: 'advance'; ms: number; times?: number }
  /** 10 s steps until the swap has this status (at most 40). */
  | { do: 'until'; status: string };

export interface MoneyScenario {
  name: string;
  create: CreateSpec;
  steps: Step[];
  /** The swap's status at the end. */
  final: string;
  /** Seen somewhere after the deposit (or at the end when there is none). */
  says?: Array<string | RegExp>;
  /** Never shown once the deposit is seen (from the start when there is none). */
  never?: RegExp[];
  /** Said, and not said, by the live status card at the end. */
  card?: { says?: Array<string | RegExp>; never?: RegExp[] };
}

const SWAP = { line: '100 USDC arbitrum base', slash: { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET' } };
const NO_REFUND_PROMISE = /paid out soon or refunded|Refund on its way|refund goes to your refund address|refunded to/i;

export const MONEY_SCENARIOS: MoneyScenario[] = [
  {
    name: 'under-payment: 80 of 100 arrives',
    create: SWAP,
    steps: [{ do: 'deposit', amount: 80 }, { do: 'status' }, { do: 'until', status: 'completed' }, { do: 'status' }, { do: 'history' }],
    final: 'completed',
    says: [
      'You sent 80 USDC: 20 USDC less than the 100 USDC asked.',
      /you now receive about 7\d\.\d+ USDC \(estimate\)/,
      'Sent: 80 USDC',
      /80 USDC on Arbitrum One → 7\d\.\d+ USDC on Base/,
    ],
  },
  {
    name: 'over-payment: 120 of 100 arrives',
    create: SWAP,
    steps: [{ do: 'deposit', amount: 120 }, { do: 'status' }, { do: 'until', status: 'completed' }, { do: 'history' }],
    final: 'completed',
    says: ['You sent 120 USDC: 20 USDC more than the 100 USDC asked.', 'Sent: 120 USDC'],
  },
  {
    name: 'a deposit seen, then confirmed, then completed',
    create: SWAP,
    steps: [{ do: 'deposit' }, { do: 'status' }, { do: 'advance', ms: 30_000 }, { do: 'status' }, { do: 'until', status: 'completed' }],
    final: 'completed',
    says: [/Deposit seen/, /Deposit confirmed/, 'Swap completed', 'Sent: 100 USDC'],
    never: [/Deposit received/],
  },
  {
    name: 'expiry without a deposit',
    create: SWAP,
    steps: [{ do: 'advance', ms: 3_600_000 + 1_000 }, { do: 'status' }],
    final: 'expired',
    says: ['Already sent funds to it? They are not lost'],
  },
  {
    name: 'expiry, then a late deposit',
    create: SWAP,
    steps: [{ do: 'advance', ms: 3_600_000 + 1_000 }, { do: 'deposit', late: true }, { do: 'status' }],
    final: 'expired',
    says: ['A deposit reached this swap after it closed', 'Contact Layerswap support'],
  },
  {
    name: 'refund with a refund address',
    create: { ...SWAP, refund: true },
    steps: [{ do: 'deposit', outcome: 'fail_execution' }, { do: 'until', status: 'refunded' }, { do: 'status' }],
    final: 'refunded',
    says: [`The deposit was refunded (100 USDC) to`, 'Refunded: 100 USDC'],
    card: { says: ['Refunded: 100 USDC'], never: [/Receive \(quoted\)/] },
  },
  {
    name: 'no refund address: the payout keeps failing, support is named',
    create: SWAP,
    steps: [{ do: 'deposit', outcome: 'fail_execution' }, { do: 'advance', ms: 10_000, times: 6 }, { do: 'status' }],
    final: 'ls_transfer_pending',
    says: ['No refund address was given, so Layerswap cannot refund by itself'],
    never: [NO_REFUND_PROMISE],
  },
  {
    name: 'stuck: later than expected, said as passed',
    create: SWAP,
    steps: [{ do: 'deposit', outcome: 'fail_execution' }, { do: 'advance', ms: 30_000, times: 14 }, { do: 'status' }],
    final: 'ls_transfer_pending',
    says: ['Swap taking longer than expected', /later than usual|taking longer than usual/i],
    never: [NO_REFUND_PROMISE],
    card: { says: [/taking longer than usual|Later than usual/], never: [/from now\)/] },
  },
  {
    name: '"I\'ve sent it" before the service sees the deposit',
    create: SWAP,
    steps: [{ do: 'sentIt' }, { do: 'status' }, { do: 'deposit' }, { do: 'status' }, { do: 'until', status: 'completed' }],
    final: 'completed',
    says: ['Swap completed'],
    never: [/status card (below|above)|card is (below|above)/i],
  },
  {
    // Issue 32: after "I've sent it" and a pasted hash, /status said "Send the exact amount" and posted the deposit card again.
    name: '"I\'ve sent it" with the hash: /status never asks to pay again, and the deposit card is not posted again',
    create: SWAP,
    steps: [{ do: 'sentIt', hash: true }, { do: 'status' }, { do: 'deposit' }, { do: 'status' }, { do: 'until', status: 'completed' }],
    final: 'completed',
    says: ['Deposit sent, not seen yet', SENT_HASH, 'Swap completed'],
  },
  {
    name: 'refuel: listed as a deduction with what it delivers',
    create: { ...SWAP, refuel: true },
    steps: [{ do: 'deposit' }, { do: 'until', status: 'completed' }],
    final: 'completed',
    says: [/− Refuel \(0\.000\d+ ETH for gas\): [\d.]+ USDC/],
  },
  {
    name: 'from an exchange (Coinbase withdrawal)',
    create: {
      line: '100 USDC from Coinbase to Base',
      slash: { amount: 100, token: 'USDC', from: 'COINBASE', to: 'BASE_MAINNET' },
      pick: 'Ethereum',
    },
    steps: [{ do: 'deposit' }, { do: 'until', status: 'completed' }],
    final: 'completed',
    says: ['Swap completed'],
  },
  {
    name: 'to an exchange (Coinbase deposit address)',
    create: {
      line: '100 USDC arbitrum to coinbase',
      slash: { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'COINBASE' },
      pick: 'Base',
    },
    steps: [{ do: 'deposit' }, { do: 'until', status: 'completed' }],
    final: 'completed',
    // The exchange is named wherever the route is (issue 32), the receipt and the live card too.
    says: ['Swap completed', /Coinbase \(Base\)/],
    card: { says: [/Coinbase \(Base\)/] },
  },
];

/** One thing the user was shown: a message as sent, or one version of it after an edit. */
export interface Shown {
  text: string;
  buttons: string[];
  /** It carries the deposit card's QR (a payment request or the address to scan). */
  qr?: boolean;
}

/** A chat surface under test: the live stack behind it and a user in their private chat. */
export interface MoneySurface {
  live: LiveStack;
  /** Through this surface's wizard to the deposit card; the swap's id. */
  create(spec: CreateSpec): Promise<string>;
  /** Presses "I've sent it" on the deposit card and answers what it asks: the hash when given, else skip. */
  sentIt(swapId: string, hash?: string): Promise<void>;
  /** /status <id>, waiting for the answer. */
  status(swapId: string): Promise<void>;
  /** /history, waiting for the answer. */
  history(): Promise<void>;
  /** A bookmark in the conversation. */
  mark(): unknown;
  /** Everything shown since the bookmark (new messages and new versions of old ones), in order. */
  since(mark: unknown): Shown[];
  /** The newest live status card of this swap, as it stands now. */
  statusCard(swapId: string): Shown | undefined;
}

interface Story {
  swapId: string;
  /** Everything shown from the swap's creation on. */
  all: Shown[];
  /** Everything shown from the deposit on (undefined: no deposit in this scenario). */
  afterDeposit?: Shown[];
  /** The model after every step from the deposit on (or all steps when there is none). */
  models: SwapMoney[];
  depositAddress?: string;
}

async function upToDate(live: LiveStack): Promise<void> {
  await waitFor(async () => (await live.tracking.pendingNotifications()) === 0, 'the chats to be up to date');
}

async function tick(live: LiveStack, swapId: string, ms: number): Promise<void> {
  live.clock.advance(ms);
  const at = live.clock.now();
  await waitFor(async () => {
    const s = await live.tracking.swapState(swapId);
    return (s?.lastPolledAt ?? 0) >= at || ['completed', 'refunded', 'expired', 'failed'].includes(s?.status ?? '');
  }, 'a poll after the clock moved');
  await upToDate(live);
}

/** Plays a scenario on a surface and checks the story; returns it for scenario-specific checks. */
export async function runMoneyScenario(surface: MoneySurface, s: MoneyScenario): Promise<Story> {
  const { live } = surface;
  const start = surface.mark();
  const swapId = await surface.create(s.create);
  const details = await live.api.getSwap(swapId);
  const depositAddress = details.deposit_actions?.find((a) => a.to_address)?.to_address ?? undefined;
  await upToDate(live);
  let depositMark: unknown;
  const models: SwapMoney[] = [];
  const snapshot = async () => {
    const m = swapMoney(await live.api.getSwap(swapId), live.clock.now());
    if (depositMark !== undefined || !s.steps.some((x) => x.do === 'deposit')) models.push(m);
    return m;
  };
  for (const step of s.steps) {
    switch (step.do) {
      case 'sentIt':
        await surface.sentIt(swapId, step.hash ? SENT_HASH : undefined);
        // The user's own word is evidence of a deposit: from here on nothing may ask for the money.
        await upToDate(live);
        depositMark ??= surface.mark();
        break;
      case 'status':
        await surface.status(swapId);
        break;
      case 'history':
        await surface.history();
        break;
      case 'deposit':
        await upToDate(live);
        depositMark ??= surface.mark();
        live.sandbox.deposit(swapId, {
          ...(step.amount !== undefined ? { amount: step.amount } : {}),
          ...(step.outcome ? { outcome: step.outcome } : {}),
          ...(step.late ? { late: true } : {}),
        });
        await live.tracking.service.pollNow(swapId).catch(() => undefined);
        await tick(live, swapId, 1_000);
        break;
      case 'advance':
        for (let i = 0; i < (step.times ?? 1); i++) {
          await tick(live, swapId, step.ms);
          await snapshot();
        }
        break;
      case 'until':
        for (let i = 0; i < 40 && (await live.tracking.swapState(swapId))?.status !== step.status; i++) {
          await tick(live, swapId, 10_000);
          await snapshot();
        }
        break;
    }
    await snapshot();
  }
  await upToDate(live);
  const model = await snapshot();
  expect((await live.api.getSwap(swapId)).swap.status, `${s.name}: the swap's status at the end`).toBe(s.final);
  const story: Story = {
    swapId,
    all: surface.since(start),
    models,
    ...(depositMark !== undefined ? { afterDeposit: surface.since(depositMark) } : {}),
    ...(depositAddress ? { depositAddress } : {}),
  };
  checkMoneyStory(story, s, model, surface.statusCard(swapId));
  return story;
}

/** Instructions to pay: none may be shown once a deposit is seen. */
const SEND_WORDS =
  /Send exactly|Send the exact amount|Send it before|Send it within|Withdraw exactly|^Send: |Copy address|Copy amount|I've sent it/m;
const SEND_BUTTONS = /^(Copy address|Copy amount|Copy memo|I've sent it)$/;
/** Phase names retired in favour of one name per phase (issue 24, item 6). */
const OLD_PHASE_NAMES = /Deposit received/;
/** A message pointing at another one "below" or "above", which may not be there (issue 24, items 3 and 5). */
const POINTS_AWAY = /\b(?:is|are) (?:below|above)\b|card (?:below|above)/i;

const AMOUNT = /(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)? (USDC|ETH)\b/g;

/** One pattern per set of symbols (the money properties ask thousands of times). */
const FIGURES = new Map<string, RegExp>();

/** The figures ("80 USDC", "0.0004 ETH") in a text that are none of the models' figures. */
export function figuresNotInModel(text: string, models: SwapMoney[]): string[] {
  const allowed = allowedFigures(models);
  const symbols = [
    ...new Set(
      models.flatMap((m) => [
        m.source.symbol,
        m.destination.symbol,
        ...m.deductions.flatMap((d) => (d.delivers?.symbol ? [d.delivers.symbol] : [])),
      ]),
    ),
  ].filter((x) => x && x !== '?');
  if (symbols.length === 0) return [];
  const key = symbols.join('|');
  const re =
    FIGURES.get(key) ??
    FIGURES.set(
      key,
      new RegExp(
        `(?<![\\d.,])(\\d{1,3}(?:,\\d{3})+|\\d+)(\\.\\d+)? (${symbols.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w.])`,
        'g',
      ),
    ).get(key)!;
  return [...text.matchAll(re)].map((m) => `${m[1]!.replace(/,/g, '')}${m[2] ?? ''} ${m[3]}`).filter((f) => !allowed.has(f));
}

/** Every figure a model allows to be shown, as "<number> <symbol>". */
function allowedFigures(models: SwapMoney[]): Set<string> {
  const out = new Set<string>();
  const add = (m: Money | undefined) => {
    if (!m) return;
    const t = moneyText(m);
    out.add(t.replace(/^-/, ''));
  };
  for (const m of models) {
    add(m.asked);
    add(m.deposited);
    add(m.lateTransfer);
    add(m.difference?.amount);
    add(m.expected);
    add(m.minimum);
    add(m.received);
    add(m.refund?.amount);
    add(m.refuelled);
    for (const d of m.deductions) {
      add(d.amount);
      if (d.delivers) out.add(`${d.delivers.amount} ${d.delivers.symbol}`);
    }
    // The worth of the payout in the source token (receipt), and what a refund kept.
    const sent = m.deposited ?? m.asked;
    if (sent) {
      const total = m.deductions.reduce((a, d) => a + d.amount.units, 0n);
      add({ units: sent.units - total, token: sent.token });
      if (m.refund?.amount && m.refund.amount.token.symbol === sent.token.symbol)
        add({ units: sent.units - m.refund.amount.units, token: sent.token });
    }
  }
  return out;
}

function checkMoneyStory(story: Story, s: MoneyScenario, model: SwapMoney, card: Shown | undefined): void {
  const where = (x: Shown) => `${s.name}, in:\n${x.text}\n[${x.buttons.join(' | ')}]`;
  for (const x of story.all) expect(x.text, where(x)).not.toMatch(OLD_PHASE_NAMES);
  for (const x of story.all) expect(x.text, where(x)).not.toMatch(POINTS_AWAY);
  const told = (story.afterDeposit ?? story.all).map((x) => x.text).join('\n---\n');
  for (const re of s.never ?? []) expect(told, s.name).not.toMatch(re);
  for (const c of s.says ?? []) {
    if (typeof c === 'string') expect(told, s.name).toContain(c);
    else expect(told, s.name).toMatch(c);
  }
  if (story.afterDeposit) {
    const allowed = allowedFigures(story.models);
    const under = story.models.some((m) => m.difference);
    const asked = model.asked ? moneyText(model.asked) : undefined;
    for (const x of story.afterDeposit) {
      // Nothing sent or edited after the deposit tells the user to pay.
      expect(x.text, where(x)).not.toMatch(SEND_WORDS);
      expect(
        x.buttons.filter((b) => SEND_BUTTONS.test(b)),
        where(x),
      ).toEqual([]);
      expect(x.qr ?? false, `a QR to pay: ${where(x)}`).toBe(false);
      if (story.depositAddress)
        expect(x.text.toLowerCase(), `the deposit address: ${where(x)}`).not.toContain(story.depositAddress.toLowerCase());
      // Every figure in either token is one of the model's.
      for (const m of x.text.matchAll(AMOUNT)) {
        const figure = `${m[1]!.replace(/,/g, '')}${m[2] ?? ''} ${m[3]}`;
        expect(allowed, `${figure} is not a figure of the money model (${[...allowed].join(', ')}): ${where(x)}`).toContain(figure);
      }
      // When the deposit differs from what was asked, the amount asked appears only as "asked".
      if (under && asked) for (const l of x.text.split('\n')) if (l.includes(asked)) expect(l, where(x)).toMatch(/asked/i);
    }
  }
  // The live status card's next step is the model's.
  expect(card, `${s.name}: a live status card`).toBeDefined();
  expect(card!.text, `${s.name}: the live card's next step`).toContain(nextWords(model, 'en'));
  for (const c of s.card?.says ?? []) expect(card!.text, s.name).toMatch(c);
  for (const c of s.card?.never ?? []) expect(card!.text, s.name).not.toMatch(c);
}
