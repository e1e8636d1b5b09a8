import { describe, expect, test } from 'vitest';
import { ActionCodec } from '../../src/bot/kernel/actions.js';
import { COMMANDS, UNLISTED_COMMANDS } from '../../src/bot/command-list.js';
import { ACTION_HANDLERS, COMMAND_HANDLERS } from '../../src/bot/dispatch.js';
import { VERBS } from '../../src/bot/kernel/verbs.js';
import { replyButtons, type Reply } from '../../src/contracts/reply.js';
import { allText, card, ChatUser, useHarness } from './support/conversation.js';

const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const h = useHarness();

describe('listing commands', () => {
  test('/networks lists every network; /networks <type> filters; an unknown type lists the types', async () => {
    const u = new ChatUser(h, { userId: 'c1' });
    const all = card(await u.says('/networks'), {
      title: 'Networks (15)',
      contains: ['Arbitrum One · 5 tokens', 'Ton · 2 tokens', 'Stellar · 2 tokens'],
    });
    // Display names, not the service's ids and families (issue 34).
    expect(allText([all])).not.toMatch(/ARBITRUM_MAINNET|· evm ·/);
    const evm = card(await u.says('/networks EVM'), { title: /^evm networks \(\d+\)$/, contains: ['Base · '] });
    expect(allText([evm])).not.toContain('Solana');
    card(await u.says('/networks cardano'), {
      title: 'Unknown network type',
      contains: ['Types: bitcoin, evm, solana, starknet, stellar, ton, tron.'],
    });
  });

  test('/routes from a network and token, with did-you-mean for typos', async () => {
    const u = new ChatUser(h, { userId: 'c2' });
    card(await u.says('/routes arbitrum usdc'), {
      title: 'From USDC on Arbitrum One you can reach (11)',
      contains: ['Base: USDC', 'Optimism: USDC', 'Stellar: USDC'],
    });
    card(await u.says('/routes arbitum'), { title: 'Unknown network', contains: ['Did you mean Arbitrum One?'] });
    card(await u.says('/routes arbitrum doge'), { title: 'Unknown token', contains: ['It has ETH, USDC'] });
    card(await u.says('/routes'), { title: 'Which network?', contains: ['/routes <network> [token]'] });
  });

  test('/help lists the commands from COMMANDS; groups see only group commands', async () => {
    const text = allText(await new ChatUser(h, { userId: 'c3' }).says('/help'));
    for (const c of [
      '/quote <amount>',
      '/swap',
      '/status <swap id | tx hash | address>',
      '/track <swap id | tx hash | address>',
      '/track',
      '/untrack',
      '/tracking',
      '/history',
      '/networks',
      '/routes',
      '/cancel',
    ])
      expect(text).toContain(c);
    const group = allText(await new ChatUser(h, { userId: 'c3', chatId: 'gh', chatKind: 'group' }).says('/help'));
    expect(group).not.toContain('/history');
    expect(allText(await new ChatUser(h, { userId: 'c3' }).says('/start'))).toContain('/quote <amount>');
    card(await new ChatUser(h, { userId: 'c3' }).says('/start <script>'), { title: 'This link has expired' });
    card(await new ChatUser(h, { userId: 'c3' }).says('/start d_AAAAAAAA'), { title: 'This link has expired' });
  });

  test('/history pages newest first with Prev / Next', async () => {
    const u = new ChatUser(h, { userId: 'c4' });
    card(await u.says('/history'), { title: 'No swaps yet' });
    for (let i = 0; i < 9; i++) await u.createsSwap(`/swap ${10 + i} USDC arbitrum base`, EVM);
    const first = card(await u.says('/history'), {
      title: 'Your swaps (9)',
      contains: ['18 USDC on Arbitrum One → USDC on Base · Waiting for your deposit', 'Page 1 of 2'],
      buttons: ['Next ›'],
    });
    expect(allText([first])).not.toContain('· 10 USDC');
    card(await u.presses('Next ›'), { title: 'Your swaps (9)', contains: ['10 USDC on Arbitrum One', 'Page 2 of 2'], buttons: ['‹ Prev'] });
  });
});

describe('buttons that cannot be trusted', () => {
  const forged = [
    '',
    'zz:1',
    '~AAAAAAAAAAAA',
    'pk:abcdefgh:sn:ARBITRUM_MAINNET',
    'cf:abcdefgh',
    'qs:1:2',
    'nw',
    'x'.repeat(200),
    'st:%ZZ',
    'pg:abcdefgh:sn:99',
  ];
  for (const action of forged) {
    test(`${JSON.stringify(action.slice(0, 30))} gets "this button has expired" or a clear refusal`, async () => {
      const r = await new ChatUser(h, { userId: 'c5' }).sendsAction(action);
      expect(r.length).toBeGreaterThan(0);
      expect(allText(r)).toMatch(/This button has expired|That is not a swap id|Networks/);
    });
  }

  test('a forged quote button with made-up names is refused', async () => {
    card(await new ChatUser(h, { userId: 'c6' }).sendsAction('qs:100:NARNIA:USDC:BASE_MAINNET:USDC'), { title: 'This button has expired' });
  });

  test('someone else pressing my Confirm gets nothing of mine', async () => {
    const me = new ChatUser(h, { userId: 'c7', chatId: 'shared', chatKind: 'group' });
    const confirm = await me.toConfirmation('/swap 100 USDC arbitrum base', EVM);
    const before = h.sandbox.requestCount('createSwap');
    const other = new ChatUser(h, { userId: 'c8', chatId: 'shared', chatKind: 'group' });
    card(await other.presses('Confirm', confirm), { title: 'This button has expired' });
    expect(h.sandbox.requestCount('createSwap')).toBe(before);
  });
});

describe('suggest (autocomplete)', () => {
  test('networks ranked exact > prefix > substring > fuzzy, at most 25, from the cache only', async () => {
    await new ChatUser(h, { userId: 'c9' }).says('/networks');
    const requests = h.sandbox.requestCount();
    expect((await h.core.suggest('network', 'base'))[0]).toEqual({ label: 'Base (BASE_MAINNET)', value: 'BASE_MAINNET' });
    expect((await h.core.suggest('source_network', 'arb'))[0]?.value).toBe('ARBITRUM_MAINNET');
    expect((await h.core.suggest('destination_network', 'arbitum'))[0]?.value).toBe('ARBITRUM_MAINNET');
    expect((await h.core.suggest('network', '42161'))[0]?.value).toBe('ARBITRUM_MAINNET');
    const prefix = await h.core.suggest('network', 's');
    expect(prefix.map((s) => s.value).slice(0, 4)).toEqual(
      expect.arrayContaining(['SOLANA_MAINNET', 'STARKNET_MAINNET', 'SCROLL_MAINNET']),
    );
    expect((await h.core.suggest('network', '')).length).toBeLessThanOrEqual(25);
    expect(await h.core.suggest('network', 'zzzzzz')).toEqual([]);
    for (let i = 0; i < 50; i++) await h.core.suggest('network', 'arbitrum'.slice(0, i % 8));
    expect(h.sandbox.requestCount()).toBe(requests);
  });

  test('tokens narrowed by network', async () => {
    const onArb = await h.core.suggest('token', 'us', { network: 'arbitrum' });
    expect(onArb.map((s) => s.value)).toEqual(['USDC', 'USDT0', 'USDC.e']);
    expect(onArb.filter((s) => !(s.label.length <= 100))).toEqual([]);
    const onTon = await h.core.suggest('token', '', { network: 'TON_MAINNET' });
    expect(onTon.map((s) => s.value).sort()).toEqual(['TON', 'USDT']);
  });
});

describe('commands and verbs cannot drift from their handlers', () => {
  test('every declared command is routed and every routed command is declared, once each', () => {
    const declared = [...COMMANDS, ...UNLISTED_COMMANDS].map((c) => c.name);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...COMMAND_HANDLERS.keys()].sort()).toEqual([...declared].sort());
    for (const c of [...COMMANDS, ...UNLISTED_COMMANDS]) expect(COMMAND_HANDLERS.get(c.name)).toBe(c.run);
  });

  test('every verb has one handler and every handler a verb', () => {
    const verbs = Object.values(VERBS);
    expect(new Set(verbs).size).toBe(verbs.length);
    expect([...ACTION_HANDLERS.keys()].sort()).toEqual([...verbs].sort());
  });

  test('every button the bot shows along a whole swap carries a declared verb', async () => {
    const u = new ChatUser(h, { userId: 'c9' });
    const seen: Reply[] = [];
    const keep = (r: Reply[]): Reply[] => (seen.push(...r), r);
    keep(await u.says('/quote 100 USDC arbitrum base'));
    keep(await u.presses('Swap this'));
    keep(await u.says(EVM));
    keep(await u.presses('Skip (no refund address)'));
    keep(await u.presses('No refuel'));
    keep(await u.presses('Confirm'));
    keep(await u.says('/swap'));
    keep(await u.presses('Next ›'));
    keep(await u.says('/networks'));
    keep(await u.says('/routes arbitrum'));
    const codec = new ActionCodec(h.redis, h.prefix);
    const actions = seen.flatMap(replyButtons).flatMap((b) => (b.kind === 'action' ? [b.action] : []));
    expect(actions.length).toBeGreaterThan(20);
    const verbs = new Set<string>();
    for (const a of actions) {
      const d = await codec.decode(a);
      expect(d.ok).toBe(true);
      if (d.ok) verbs.add(d.action.verb);
    }
    for (const v of verbs) expect(ACTION_HANDLERS.has(v), `verb ${v} has no handler`).toBe(true);
    // The walk covers most verbs, so a new button with a literal verb shows up here.
    expect(verbs.size).toBeGreaterThanOrEqual(10);
  });
});
