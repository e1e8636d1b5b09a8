import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { createCore } from '../../src/bot/create-core.js';
import type { BotCore } from '../../src/bot/core.js';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import { CatalogCache } from '../../src/layerswap/catalog-cache.js';
import { startHarness as startTracking, type Harness as TrackingHarness } from '../tracking/support/harness.js';
import { allText, card, ChatUser } from './support/conversation.js';

/**
 * One swap's money told as a conversation, with the real tracking behind it: the core, the sandbox
 * over HTTP on a ManualClock, real Redis, the tracking workers delivering the real cards and key
 * moments to a recording console messenger. In each: the deposit card, the tracked card, the key
 * moments and /status agree with each other, and after the deposit is seen nothing says "send".
 */
let h: TrackingHarness;
let core: BotCore;

const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const REFUND = '0x52908400098527886E0F7030069857D2E4169EE7';
const SEND = /Send exactly|Send the exact amount|Send it before|Withdraw exactly/;

beforeAll(async () => {
  h = await startTracking({ tracking: { pacing: () => undefined } });
  await h.startWorkers({ render: trackingRenderer });
  const catalog = new CatalogCache(h.client, { ttlMs: 60_000, now: () => h.clock.now() });
  core = createCore({
    api: h.client,
    catalog,
    redis: h.redis,
    keyPrefix: `${h.prefix}:core`,
    tracking: h.tracking.service,
    limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 },
    now: () => h.clock.now(),
  });
});
afterAll(async () => {
  await h?.close();
});

const stack = () => ({ core });
const isCard = (id: string) => (r: Reply) => (r.title ?? '').startsWith(`Swap ${id.slice(0, 8)}: `);
/** What tracking delivered to the creator's private chat: the live card (newest) and the key moments. */
function delivered(chatId: string, id: string): { card: Reply | undefined; moments: Reply[] } {
  const log = h.messengers.console.forChat(chatId);
  return {
    card: log.filter((r) => isCard(id)(r.reply)).at(-1)?.reply,
    moments: log.filter((r) => r.op === 'send' && !isCard(id)(r.reply)).map((r) => r.reply),
  };
}
const momentText = (chatId: string, id: string, title: string | RegExp) => {
  const m = delivered(chatId, id).moments.find((r) => (typeof title === 'string' ? r.title === title : title.test(r.title ?? '')));
  expect(
    m,
    `moment ${String(title)} in:\n${delivered(chatId, id)
      .moments.map((r) => r.title)
      .join(', ')}`,
  ).toBeDefined();
  return replyText(m!);
};
async function step(id: string, ms = 10_000): Promise<void> {
  h.clock.advance(ms);
  // As "I've sent it" or a webhook would: a poll now rather than at the waiting cadence.
  await h.tracking.service.pollNow(id);
  await h.settle([id]);
}
/** Everything the user sees about the swap now: the live card, each key moment, /status. */
async function everything(u: ChatUser, id: string): Promise<string> {
  const d = delivered(u.who.userId, id);
  return [d.card ? replyText(d.card) : '', ...d.moments.map(replyText), allText(await u.says(`/status ${id}`))].join('\n---\n');
}

describe('what the bot tells you about your money', () => {
  it('under-payment: 80 of 100 arrives; said at once with the new expected amount; every later message uses 80; the receipt reconciles', async () => {
    const u = new ChatUser(stack(), { userId: 'm-under' });
    const { id, deposit } = await u.createsSwap('/swap 100 USDC arbitrum base', EVM);
    card(deposit, { contains: ['Send exactly 100 USDC', 'You receive', EVM, 'Check this swap on layerswap.io before sending'] });
    await step(id, 1_000);
    h.sandbox.deposit(id, { amount: 80 });
    await step(id, 1_000);
    const seen = momentText(u.who.userId, id, 'Deposit seen');
    expect(seen).toContain('You sent 80 USDC: 20 USDC less than the 100 USDC asked.');
    expect(seen).toMatch(/you now receive about 7\d\.\d+ USDC \(estimate\)/);
    const estimate = /about (7\d\.\d+) USDC/.exec(seen)?.[1];
    const now = await everything(u, id);
    expect(now).not.toMatch(SEND);
    expect(now).toContain('Deposited: 80 USDC on Arbitrum One');
    expect(now).toContain(`Receive (estimate): about ${estimate} USDC on Base`);
    await h.settleUntilCompleted(id, 10);
    const receipt = momentText(u.who.userId, id, 'Swap completed');
    const received = /Received (7\d\.\d+) USDC on Base/.exec(receipt)?.[1];
    expect(receipt).toContain('Sent: 80 USDC');
    expect(receipt).toContain(`= Received: ${received} USDC`);
    // sent − deductions = received, to the token's 6 decimals.
    const deductions = [...receipt.matchAll(/^− [^:]+: (-?[\d.]+) USDC/gm)].map((m) => Math.round(Number(m[1]) * 1e6));
    expect(80_000_000 - deductions.reduce((a, b) => a + b, 0)).toBe(Math.round(Number(received) * 1e6));
    const end = await everything(u, id);
    expect(end).toContain(`Received: ${received} USDC on Base`);
    expect(end).not.toMatch(/Received: 100|Send: 100/);
    // /history says the same: what was sent and what arrived.
    expect(allText(await u.says('/history'))).toContain(`80 USDC on Arbitrum One → ${received} USDC on Base`);
  });

  it('over-payment: 120 of 100 is said with what it means; /status after the deposit never re-posts the deposit card', async () => {
    const u = new ChatUser(stack(), { userId: 'm-over' });
    const { id } = await u.createsSwap('/swap 100 USDC arbitrum base', EVM);
    await step(id, 1_000);
    h.sandbox.deposit(id, { amount: 120 });
    await step(id, 1_000);
    expect(momentText(u.who.userId, id, 'Deposit seen')).toContain('You sent 120 USDC: 20 USDC more than the 100 USDC asked.');
    const status = await u.says(`/status ${id}`);
    expect(status).toHaveLength(1);
    // No rule about the route's maximum the bot cannot apply (120 is far inside it): issue 32.
    expect(allText(status)).not.toContain("Above the route's maximum");
    expect(allText(status)).not.toMatch(SEND);
  });

  it('"I\'ve sent it" before the service sees the deposit, then seen → confirmed → completed: one name per phase, no "send" after it is seen', async () => {
    const u = new ChatUser(stack(), { userId: 'm-sent' });
    const { id, deposit } = await u.createsSwap('/swap 100 USDC arbitrum base', EVM);
    await step(id, 1_000);
    await u.presses("I've sent it", deposit);
    const answer = allText(await u.says('skip'));
    // No card "below" or "above" that may not be there: the card in this chat, wherever it is.
    expect(answer).not.toMatch(/below|above/);
    // The user said they paid: /status never asks them to pay again (issue 32).
    const claimed = await u.says(`/status ${id}`);
    card(claimed, { title: /Deposit sent, not seen yet/ });
    expect(allText(claimed)).not.toMatch(SEND);
    h.sandbox.deposit(id);
    await step(id, 1_000);
    expect(delivered(u.who.userId, id).card?.title).toMatch(/Deposit seen, confirming \d\/3/);
    card(await u.says(`/status ${id}`), { title: /Deposit seen, confirming \d\/3/ });
    // The deposit card, asked for again, is its later state: no address, QR, Copy or "I've sent it".
    const again = await u.presses('Status', deposit);
    expect(allText(again)).not.toMatch(SEND);
    await step(id, 30_000);
    expect(delivered(u.who.userId, id).card?.title).toMatch(/Deposit confirmed, sending|Completed|Delivered/);
    await h.settleUntilCompleted(id, 10);
    const all = await everything(u, id);
    expect(all).not.toMatch(SEND);
    expect(all).not.toContain('Deposit received');
  });

  it('expiry without a deposit offers a path for someone who sent anyway; a late deposit is acknowledged, not ignored', async () => {
    const u = new ChatUser(stack(), { userId: 'm-exp' });
    const { id } = await u.createsSwap('/swap 100 USDC arbitrum base', EVM);
    await step(id, 3_600_000 + 1_000);
    const expired = await everything(u, id);
    expect(expired).toContain('Already sent funds to it? They are not lost');
    expect(expired).not.toMatch(SEND);
    h.sandbox.deposit(id, { late: true });
    const late = allText(await u.says(`/status ${id}`));
    expect(late).toContain('A deposit reached this swap after it closed');
    expect(late).toContain('Contact Layerswap support');
    expect(replyButtons((await u.says(`/status ${id}`))[0]!).map((b) => b.label)).toContain('Layerswap support');
  });

  it('a failed execution refunds only where a refund address exists; without one, support is named, never "refunded"', async () => {
    const withRefund = new ChatUser(stack(), { userId: 'm-ref' });
    const a = (await withRefund.createsSwap('/swap 100 USDC arbitrum base', EVM, REFUND)).id;
    h.sandbox.deposit(a, { outcome: 'fail_execution' });
    for (let k = 0; k < 8 && (await h.tracking.swapState(a))?.status !== 'refunded'; k++) await step(a);
    expect(momentText(withRefund.who.userId, a, 'Refund sent')).toContain(`The deposit was refunded (100 USDC) to ${REFUND}`);
    const refunded = await everything(withRefund, a);
    expect(refunded).toContain('Refunded: 100 USDC');
    expect(refunded).not.toContain('Receive (quoted)');
    expect(refunded).not.toMatch(/below|above/);

    const without = new ChatUser(stack(), { userId: 'm-noref' });
    const b = (await without.createsSwap('/swap 100 USDC arbitrum base', EVM)).id;
    h.sandbox.deposit(b, { outcome: 'fail_execution' });
    for (let k = 0; k < 6; k++) await step(b);
    const stuck = await everything(without, b);
    expect(stuck).toContain('No refund address was given, so Layerswap cannot refund by itself');
    expect(stuck).not.toMatch(/paid out soon or refunded|Refund on its way/);
  });

  it('refuel: the confirm card and the receipt list it as a deduction with what it delivers', async () => {
    const u = new ChatUser(stack(), { userId: 'm-fuel' });
    await u.says('/swap 100 USDC arbitrum base');
    await u.says(EVM);
    await u.presses('Skip (no refund address)');
    const confirm = card(await u.presses('Yes, refuel'), {
      title: 'Confirm your swap',
      contains: ['How it adds up', /− Refuel \(0\.000\d+ ETH for gas\): [\d.]+ USDC/],
    });
    const deposit = await u.presses('Confirm', [confirm]);
    const id = /Swap id: ([0-9a-f-]{36})/.exec(allText(deposit))![1]!;
    h.sandbox.deposit(id);
    await h.settleUntilCompleted(id, 10);
    expect(momentText(u.who.userId, id, 'Swap completed')).toMatch(/− Refuel \(0\.000\d+ ETH for gas\): [\d.]+ USDC/);
  });

  it('the retired statuses (cancelled, user_transfer_delayed) are not offered in /settings any more', async () => {
    const u = new ChatUser(stack(), { userId: 'm-settings' });
    const labels = (await u.says('/settings')).flatMap(replyButtons).map((b) => b.label);
    expect(labels.join('\n')).toContain('Completed');
    expect(labels.filter((l) => /Cancelled|delayed/i.test(l))).toEqual([]);
  });
});
