import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleChat, type ConsoleChat } from '../../src/platforms/console/bot.js';
import { driveToCompletion, startConsoleLiveStack, type LiveStack } from './live-stack.js';
import { waitFor } from '../support/wait.js';

/**
 * The creator's deposit card in the terminal chat (the real core and tracking engine on real
 * Redis, the sandbox on a ManualClock): the live status card is printed as soon as the swap
 * exists, and the deposit card is reprinted ("updated:") as the deposit is seen and the swap
 * completes, without the address, Copy or "I've sent it".
 */
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

let live: LiveStack;
let chat: ConsoleChat;
let out = '';
const input = new PassThrough();

beforeAll(async () => {
  const stack = await startConsoleLiveStack('console-deposit-life');
  live = stack.live;
  const output = new PassThrough();
  output.on('data', (d: Buffer) => (out += d.toString()));
  chat = startConsoleChat({ core: live.core, input, output, userId: 'life-user' });
  stack.attach(chat);
});

afterAll(async () => {
  chat.close();
  await live.close();
});

const seen = (re: RegExp | string, from: number, what: string): Promise<string> =>
  waitFor(() => {
    const tail = out.slice(from);
    return (typeof re === 'string' ? tail.includes(re) : re.test(tail)) ? tail : undefined;
  }, what);

/** Presses the newest button with this label. */
function press(label: string): void {
  const n = [...out.matchAll(new RegExp(`\\[(#?\\d+)\\] ${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'g'))].at(-1)?.[1];
  if (!n) throw new Error(`no button ${label} in:\n${out}`);
  void chat.send(n);
}

describe('terminal chat: the deposit card has a lifecycle', () => {
  it('status card at once, then the deposit card reprinted as seen and closed', async () => {
    let at = out.length;
    void chat.send('/swap 100 USDC arbitrum base');
    await seen('› Your address on Base', at, 'the address question');
    at = out.length;
    void chat.send(DEST);
    await seen('Skip (no refund address)', at, 'the refund question');
    at = out.length;
    press('Skip (no refund address)');
    await seen('No refuel', at, 'the refuel question');
    at = out.length;
    press('No refuel');
    await seen('Confirm', at, 'the confirm card');
    at = out.length;
    press('Confirm');
    const deposit = await seen(/Swap id: [0-9a-f-]{36}[\s\S]*I've sent it/, at, 'the deposit card');
    const swapId = /Swap id: ([0-9a-f-]{36})/.exec(deposit)![1]!;
    const short = swapId.slice(0, 8);

    // The status card, at once: nothing happened to the swap yet.
    const card = await seen(new RegExp(`── update ──\\n\\S* ?Swap ${short}: Waiting for your deposit`), at, 'the status card');
    expect(card).toContain('Next: Send the exact amount to the deposit address.');

    at = out.length;
    live.sandbox.deposit(swapId, { amount: 100 });
    const after = await seen(
      new RegExp(`updated: \\S* ?Swap ${short}: Deposit (seen|confirmed)[\\s\\S]*?Deposit seen: 100 USDC at [^\\n]*Do not send again\\.`),
      at,
      'the deposit card reprinted as seen',
    );
    const reprint = after.slice(after.search(new RegExp(`updated: \\S* ?Swap ${short}: deposit`)));
    const reprintCard = reprint.split('\n\n')[0] ?? '';
    expect(reprintCard).not.toMatch(/Send exactly|Copy address|I've sent it/);

    at = out.length;
    await driveToCompletion(live, swapId);
    const closed = await seen(
      new RegExp(`updated: \\S* ?Swap ${short}: Deposit closed[\\s\\S]*This deposit address is no longer for this swap`),
      at,
      'the deposit card closed',
    );
    expect(closed).toMatch(/Received: \d+\.\d+ USDC/);
  });
});
