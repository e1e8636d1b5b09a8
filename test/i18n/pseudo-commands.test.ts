import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Incoming } from '../../src/contracts/incoming.js';
import { replyButtons, type Reply } from '../../src/contracts/reply.js';
import { t, type CatalogKey } from '../../src/i18n/index.js';
import { startHarness, type Harness } from '../bot/support/conversation.js';
import { actionOf, leftovers as wordsLeft, readable, serviceNames } from './pseudo-check.js';

/**
 * The command side in the pseudo-locale (every catalog string wrapped in ⟦…⟧), through the real
 * core, sandbox and Redis: whatever a user reads outside ⟦…⟧ must be a value (a number, a network
 * or token name, an address, an id) or a command line in code. Any English word left over fails.
 */
describe('no English outside the catalogs on the command side', () => {
  let h: Harness;
  let names: string[];
  beforeAll(async () => {
    h = await startHarness();
    names = await serviceNames(h.api);
  });
  afterAll(async () => {
    await h?.close();
  });

  const ADDRESS = '0x1111111111111111111111111111111111111111';
  const who = {
    platform: 'telegram' as const,
    userName: 'P',
    userId: 'pseudo1',
    chatId: 'pseudo1',
    chatKind: 'private' as const,
    locale: 'pseudo',
  };
  const say = (extra: Partial<Incoming>): Promise<Reply[]> => h.core.handle({ ...who, ...extra });
  const press = (replies: Reply[], key: CatalogKey): Promise<Reply[]> => {
    const label = t('pseudo', key);
    return say({ action: actionOf(replies, label) });
  };

  const leftovers = (texts: string[]): string[] => wordsLeft(texts, names);
  const check = (replies: Reply[]): void => expect(leftovers(replies.flatMap(readable))).toEqual([]);

  it('/help, /start and an expired link', async () => {
    check(await say({ text: '/help' }));
    check(await say({ text: '/start' }));
    check(await say({ text: '/start d_nothing' }));
  });

  it('a quote, a misspelt one in the wizard, and the inline quotes', async () => {
    const quote = await say({ text: '/quote 100 USDC arbitrum base' });
    expect(quote[0]!.fields!.length).toBeGreaterThan(4);
    check(quote);
    check(await say({ text: '/quote 100 usdc arbitrm base' }));
    check(await say({ text: '/quote' }));
    for (const text of ['', '100 usdc arbitrum base', '100 usdc arbitrm base']) {
      const answer = await h.core.inlineQuote({ platform: 'telegram', userId: 'pseudo-inline', userName: 'P', text, locale: 'pseudo' });
      expect(answer.results.length).toBeGreaterThan(0);
      expect(leftovers(answer.results.flatMap((r) => [r.title, r.description, ...readable(r.reply)]))).toEqual([]);
    }
  });

  it('/history empty, a swap created, its deposit card, /history and its export, the address list', async () => {
    check(await say({ text: '/history' }));
    await say({ text: '/cancel' });
    const quote = await say({ text: '/quote 100 USDC arbitrum base' });
    const askAddress = await press(quote, 'quote.swapThis');
    check(askAddress);
    const askRefund = await say({ text: ADDRESS });
    check(askRefund);
    let next = await press(askRefund, 'wizard.skipRefund');
    if (next.flatMap(replyButtons).some((b) => b.label === t('pseudo', 'wizard.refuelNo'))) next = await press(next, 'wizard.refuelNo');
    check(next);
    const deposit = await press(next, 'confirm.confirm');
    const depositId = deposit.map((r) => r.title?.match(/[0-9a-f]{8}/)?.[0]).find(Boolean) ?? '';
    expect(deposit.map((r) => r.title)).toContain(t('pseudo', 'deposit.title', { id: depositId }));
    check(deposit);
    const list = await say({ text: '/history' });
    expect(list[0]!.lines.length).toBeGreaterThan(1);
    check(list);
    const csv = await press(list, 'history.exportButton');
    expect(csv[0]!.attachment).toBeDefined();
    check(csv);
    const swaps = await say({ text: `/status ${ADDRESS}` });
    expect(swaps[0]!.title).toBe(t('pseudo', 'swapList.title'));
    check(swaps);
    // "Where is my swap?" with the swap's id: the status card with what to do now.
    const id = /[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}/.exec(deposit.flatMap(readable).join(' ') + JSON.stringify(deposit))?.[0] ?? '';
    const ask = await press(await say({ text: '/help' }), 'statusCard.button.where');
    check(ask);
    const where = await say({ text: id });
    expect(where.flatMap((r) => r.lines.map((l) => l[0]?.text))).toContain(t('pseudo', 'where.whatToDo'));
    check(where);
  });
});
