import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/bot/create-core.js';
import { replyButtons } from '../../src/contracts/reply.js';
import { CatalogCache } from '../../src/layerswap/catalog-cache.js';
import { verifyLink } from '../../src/pay/access.js';
import { payLinks } from '../../src/pay/links.js';
import { RedisDraftStore } from '../../src/bot/swap/drafts.js';
import { renderReply } from '../../src/platforms/console/render.js';
import { ChatUser, useHarness } from '../bot/support/conversation.js';

/**
 * Where "Pay from wallet" appears: on the creator's deposit card, only when the page is configured;
 * in the terminal chat (and on Discord) it is a one-time signed link bound to that person and that
 * swap, which the terminal prints when pressed; Telegram gets a web_app button (test/pay/pay-page).
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const SECRET = 'pay-link-secret-for-tests-0123456789abcdef';
const h = useHarness();

function coreWithPage() {
  return createCore({
    api: h.api,
    catalog: new CatalogCache(h.api, { ttlMs: 60_000, now: () => h.clock.now() }),
    redis: h.redis,
    keyPrefix: h.prefix,
    tracking: h.tracking,
    limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 },
    now: () => h.clock.now(),
    payLinks: payLinks({ baseUrl: 'https://bot.example.com/', secret: SECRET, ttlSeconds: 900, now: () => h.clock.now() }),
  });
}

describe('the Pay from wallet button', () => {
  it('is a signed link to the page on the creator’s deposit card, bound to them and the swap, printed by the terminal', async () => {
    const u = new ChatUser({ core: coreWithPage() }, { userId: 'carol' });
    const { id, deposit } = await u.createsSwap('/swap 100 USDC arbitrum base', EVM);
    const pay = deposit.flatMap(replyButtons).find((b) => b.label === 'Pay from wallet');
    expect(pay?.kind).toBe('url');
    const url = new URL((pay as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe('https://bot.example.com/pay/');
    // The token travels in the fragment: never in a server's access log or a Referer.
    expect(url.search).toBe('');
    const claims = verifyLink(url.hash.replace(/^#t=/, ''), SECRET, h.clock.now());
    expect(claims.ok && claims.value).toMatchObject({ platform: 'console', userId: 'carol', swapId: id });
    expect(verifyLink(url.hash.replace(/^#t=/, ''), SECRET, h.clock.now() + 901_000)).toEqual({ ok: false, why: 'expired' });
    const card = deposit.find((r) => replyButtons(r).includes(pay!))!;
    expect(renderReply(card).text).toContain('Pay from wallet ↗');
  });

  it('is absent when the page is not configured, and on a source the page cannot pay from', async () => {
    const plain = await new ChatUser(h, { userId: 'dave' }).createsSwap('/swap 100 USDC arbitrum base', EVM);
    expect(plain.deposit.flatMap(replyButtons).map((b) => b.label)).not.toContain('Pay from wallet');
    const sol = await new ChatUser({ core: coreWithPage() }, { userId: 'erin' }).createsSwap('/swap 100 USDC solana base', EVM);
    expect(sol.deposit.flatMap(replyButtons).map((b) => b.label)).not.toContain('Pay from wallet');
  });

  it('at the confirm step of a private chat, one press creates the swap in the wallet flow and answers its card with the link; a group keeps Confirm', async () => {
    const u = new ChatUser({ core: coreWithPage() }, { userId: 'fay' });
    const confirm = await u.toConfirmation('/swap 100 USDC arbitrum base', EVM);
    expect(confirm.flatMap(replyButtons).find((b) => b.label === 'Pay from wallet')?.kind).toBe('action');
    const deposit = await u.presses('Pay from wallet');
    const text = deposit.map((r) => renderReply(r).text).join('\n');
    const id = /Swap id: ([0-9a-f-]{36})/.exec(text)?.[1] ?? '';
    expect((await h.api.getSwap(id, { exclude_deposit_actions: true })).swap.use_deposit_address).toBe(false);
    // One story: no address to send to by hand, only the wallet.
    expect(text).toContain('Pay from your wallet');
    expect(text).not.toMatch(/Send exactly|0x[0-9a-fA-F]{40}/);
    const pay = deposit.flatMap(replyButtons).find((b) => b.label === 'Pay from wallet') as { kind: string; url: string };
    expect(pay.kind).toBe('url');
    const claims = verifyLink(new URL(pay.url).hash.replace(/^#t=/, ''), SECRET, h.clock.now());
    expect(claims.ok && claims.value).toMatchObject({ platform: 'console', userId: 'fay', swapId: id });

    const group = new ChatUser({ core: coreWithPage() }, { userId: 'gus', chatId: 'g1', chatKind: 'group' });
    const inGroup = await group.toConfirmation('/swap 100 USDC arbitrum base', EVM);
    expect(inGroup.flatMap(replyButtons).map((b) => b.label)).toContain('Confirm');
    expect(inGroup.flatMap(replyButtons).map((b) => b.label)).not.toContain('Pay from wallet');
  });

  it('creates nothing when the wallet flow quotes less than the confirmation showed: the confirmation comes back, and its Confirm creates it', async () => {
    const u = new ChatUser({ core: coreWithPage() }, { userId: 'hal' });
    await u.toConfirmation('/swap 100 USDC arbitrum base', EVM);
    // The confirmation showed a little more than the wallet flow now quotes (prices moved meanwhile).
    const drafts = new RedisDraftStore(h.redis, h.prefix, 600);
    const draft = (await drafts.get('console', 'hal'))!;
    draft.quoted = { ...draft.quoted!, receive: draft.quoted!.receive + 1 };
    await drafts.save(draft);
    const creates = h.sandbox.requestCount('createSwap');
    const again = await u.presses('Pay from wallet');
    expect(h.sandbox.requestCount('createSwap')).toBe(creates);
    const text = again.map((r) => renderReply(r).text).join('\n');
    expect(text).toContain('Paying from your wallet gives other figures than the ones shown');
    expect(again.flatMap(replyButtons).map((b) => b.label)).toEqual(expect.arrayContaining(['Confirm', 'Use a deposit address instead']));
    const deposit = await u.presses('Confirm');
    const id = /Swap id: ([0-9a-f-]{36})/.exec(deposit.map((r) => renderReply(r).text).join('\n'))?.[1] ?? '';
    expect(h.sandbox.requestCount('createSwap')).toBe(creates + 1);
    expect((await h.api.getSwap(id, { exclude_deposit_actions: true })).swap.use_deposit_address).toBe(false);
  });
});
