import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Messenger } from '../../src/contracts/messenger.js';
import { startLiveStack, type LiveStack } from './live-stack.js';
import { startPipeChat } from '../console/pipe-chat.js';
import {
  EVM_DEST,
  EVM_REFUND,
  MONEY_SCENARIOS,
  runMoneyScenario,
  type CreateSpec,
  type MoneySurface,
  type Shown,
} from '../support/money-scenarios.js';

/**
 * The money scenarios (test/support/money-scenarios.ts) in the terminal chat: the real core and
 * tracking engine on real Redis, the sandbox on a ManualClock, each scenario a user of their own
 * whose chat also prints what the tracking worker pushes (the live card, the key moments, the
 * deposit card reprinted as it changes).
 */
type Pipe = ReturnType<typeof startPipeChat>;
let live: LiveStack;
const chats = new Map<string, Pipe>();

beforeAll(async () => {
  // The worker prints through the chat of the user it writes to (same screen, same button numbers).
  const chatOf = (chatId: string) => chats.get(chatId)!.chat.messenger;
  const proxy: Messenger = {
    platform: 'console',
    send: (target, reply) => chatOf(target.chatId).send(target, reply),
    edit: (ref, reply) => chatOf(ref.chatId).edit(ref, reply),
  };
  live = await startLiveStack('console-money', { console: proxy });
});

afterAll(async () => {
  for (const c of chats.values()) c.chat.close();
  await live?.close();
});

const BUTTON = /\[#?\d+\] ([^\n[]+?)(?: [⧉↗])?(?= {2}|\n|$)/g;

/** Printed blocks: each reply starts with its title line; an update with its header. */
function blocks(text: string): Shown[] {
  return text
    .split(/\n(?=── update ──|updated: )|\n\n/)
    .filter((b) => b.trim())
    .map((b) => ({
      text: b,
      buttons: [...b.matchAll(BUTTON)].map((m) => m[1]!.trim()),
      qr: /\[image: QR code/.test(b),
    }));
}

function consoleSurface(userId: string): MoneySurface {
  const p = startPipeChat({ core: live.core }, { userId });
  chats.set(userId, p);
  return {
    live,
    async create(spec: CreateSpec) {
      await p.says(`/swap ${spec.line}`, spec.pick ? new RegExp(`\\] ${spec.pick}\\b`) : /› .*address/i);
      if (spec.pick) await p.presses(spec.pick, /› .*address/i);
      await p.says(EVM_DEST, 'Skip (no refund address)');
      const next = spec.refund
        ? await p.says(EVM_REFUND, /No refuel|\] Confirm/)
        : await p.presses('Skip (no refund address)', /No refuel|\] Confirm/);
      if (next.includes('No refuel')) await p.presses(spec.refuel ? 'Yes, refuel' : 'No refuel', /\] Confirm/);
      const deposit = await p.presses('Confirm', /Swap id: [0-9a-f-]{36}[\s\S]*I've sent it/);
      return /Swap id: ([0-9a-f-]{36})/.exec(deposit)![1]!;
    },
    async sentIt(_swapId: string, hash?: string) {
      const answer = await p.presses("I've sent it", /\S+\n/);
      if (/›/.test(answer)) await p.says(hash ?? 'skip', /\S+\n/);
    },
    async status(swapId: string) {
      await p.says(`/status ${swapId}`, new RegExp(`Swap ${swapId.slice(0, 8)}`));
    },
    async history() {
      await p.says('/history', /→/);
    },
    mark: () => p.text.length,
    since: (mark) => blocks(p.text.slice(mark as number)),
    statusCard(swapId: string) {
      return blocks(p.text)
        .filter((b) => b.text.includes(`Swap ${swapId.slice(0, 8)}: `) && b.text.includes('Next:'))
        .at(-1);
    },
  };
}

describe('what the terminal chat tells you about your money', () => {
  MONEY_SCENARIOS.forEach((s, i) => {
    it(s.name, async () => {
      await runMoneyScenario(consoleSurface(`con-money-${i}`), s);
    });
  });
});
