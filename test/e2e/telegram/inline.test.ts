import { describe, expect, it } from 'vitest';
import type { Json } from '../../fakes/bodies.js';
import { newUser } from './harness.js';
import { TgUser, useWorld } from './world.js';
import { waitFor, WAIT_MS } from '../../support/wait.js';

/**
 * Inline mode through real grammY, the real core and the sandbox: "@bot 500 usdc arb base" typed
 * in a chat the bot is not in, the card it sends there, Refresh in place, and "Swap this" resuming
 * the wizard in the private chat at the address step.
 */
const world = useWorld('tg-inline');

async function ask(
  from: ReturnType<typeof newUser>,
  query: string,
): Promise<{ id: string; results: Json[]; cache_time?: number; is_personal?: boolean }> {
  const id = world.fake.inlineQuery(from, query);
  const answer = await waitFor(() => world.fake.inlineAnswers.get(id), `the answer to inline query "${query}"`);
  return { id, ...answer };
}

const buttons = (r: Json): Json[] => (((r.reply_markup as Json | undefined)?.inline_keyboard as Json[][] | undefined) ?? []).flat();
const text = (r: Json): string => String((r.input_message_content as Json).message_text);

describe('Telegram inline mode', () => {
  it('answers a query with a quote article: compact card, Swap this deep link, Refresh, Share; no deposit details', async () => {
    const alice = newUser('Alice');
    const { results, cache_time } = await ask(alice, '500 usdc arbitrum base');
    const quote = results[0] as Json;
    expect(String(quote.id)).toMatch(/^quote:/);
    expect(quote.title).toBe('500 USDC on Arbitrum One → USDC on Base');
    expect(String(quote.description)).toMatch(/You receive: [\d.,]+ USDC/);
    expect(text(quote)).toContain('<b>Quote: 500 USDC on Arbitrum One → USDC on Base</b>');
    expect(text(quote)).toMatch(/You receive:<\/b> [\d.,]+ USDC on Base/);
    expect(text(quote)).not.toMatch(/deposit address|Send exactly|0x[0-9a-fA-F]{40}/);
    const [swap, refresh, share] = buttons(quote);
    expect(swap).toMatchObject({ text: 'Swap this' });
    expect(String(swap?.url)).toMatch(/^https:\/\/t\.me\/swap_test_bot\?start=sw_[A-Za-z0-9_-]{12}$/);
    expect(refresh).toMatchObject({ text: 'Refresh' });
    expect(String(refresh?.callback_data)).toMatch(/^qi:/);
    expect(share).toMatchObject({
      text: 'Share',
      switch_inline_query_chosen_chat: { query: '500 USDC ARBITRUM_MAINNET BASE_MAINNET', allow_group_chats: true },
    });
    expect(cache_time).toBeLessThanOrEqual(10);
  });

  it('offers the corrected reading when a network is misspelled', async () => {
    const { results } = await ask(newUser('Bea'), '500 usdc arbitrm base');
    const fix = results.find((r) => String(r.id).startsWith('fix:'));
    expect(fix?.title).toBe('Did you mean: 500 USDC on Arbitrum One → USDC on Base?');
    expect(text(fix as Json)).toContain('Quote: 500 USDC on Arbitrum One → USDC on Base');
  });

  it('answers a query it cannot read with a result that explains it, not an error', async () => {
    const { results } = await ask(newUser('Cid'), '500 usdc from nowhereland to base');
    expect(results.length).toBeGreaterThan(0);
    const problem = results.find((r) => String(r.id).startsWith('problem:')) as Json;
    expect(problem.title).toMatch(/nowhereland/i);
    expect(text(problem)).toContain('Example:');
    expect(results.map((r) => r.id)).toContain('help');
  });

  it('answers an empty query with a how-to and common routes, quoted', async () => {
    const { results } = await ask(newUser('Dee'), '');
    expect(results[0]).toMatchObject({ id: 'help', title: 'How to quote' });
    const routes = results.filter((r) => String(r.id).startsWith('route:'));
    expect(routes.length).toBeGreaterThan(0);
    expect(text(routes[0] as Json)).toMatch(/You receive:/);
  });

  it('a chosen card is counted in the log, refreshes in place, and Swap this resumes the wizard privately at the address step', async () => {
    const eve = newUser('Eve');
    const { id, results } = await ask(eve, '25 usdc arbitrum base');
    const quote = results[0] as Json;
    const inlineId = world.fake.chooseInline(eve, id, String(quote.id));
    expect(inlineId).toBeDefined();
    await expect
      .poll(() => world.logLines.some((l) => l.includes('"event":"inline_chosen"') && l.includes('"kind":"quote"')), { timeout: WAIT_MS })
      .toBe(true);
    expect(world.logLines.join('')).not.toContain('25 usdc');

    const refresh = buttons(quote).find((b) => b.text === 'Refresh') as Json;
    const pressed = world.fake.pressInline(eve, inlineId as string, String(refresh.callback_data));
    await waitFor(
      () => world.fake.callsTo('answerCallbackQuery').some((c) => c.payload.callback_query_id === pressed),
      'the answer to Refresh',
    );
    // The card is edited in place by its inline_message_id (the same prices: Telegram says "not
    // modified", which counts as done), and the press is answered without an alert.
    const edits = world.fake.callsTo('editMessageText').filter((c) => c.payload.inline_message_id === inlineId);
    expect(edits).toHaveLength(1);
    expect(String(edits[0]?.payload.text)).toContain('Quote: 25 USDC on Arbitrum One → USDC on Base');
    expect(world.fake.callsTo('answerCallbackQuery').find((c) => c.payload.callback_query_id === pressed)?.payload.text).toBeUndefined();
    expect(world.fake.inlineMessages.get(inlineId as string)?.text).toContain('Quote: 25 USDC on Arbitrum One → USDC on Base');
    // Nothing was sent to any chat: the bot is not in the one the card is in.
    expect(world.fake.callsTo('sendMessage')).toHaveLength(0);

    const payload = /start=(sw_[A-Za-z0-9_-]+)/.exec(String(buttons(quote).find((b) => b.text === 'Swap this')?.url))?.[1];
    const dm = new TgUser(world.fake, eve, world.fake.privateChat(eve));
    dm.says(`/start ${payload}`);
    const asked = await dm.sees('25 USDC on Arbitrum One → USDC on Base', 'the route filled in');
    expect(asked.text).toMatch(/address on Base/i);
    // The ForceReply prompt follows as its own message: wait for it (a loaded machine delivers it later).
    await waitFor(
      () => dm.messages().find((m) => m.markup !== undefined && 'force_reply' in m.markup),
      'the ForceReply prompt for the address',
    );
  });

  it('a forged or unknown Swap this link is refused plainly', async () => {
    const fay = newUser('Fay');
    const dm = new TgUser(world.fake, fay, world.fake.privateChat(fay));
    dm.says('/start sw_AAAAAAAAAAAA');
    await dm.sees('This link has expired');
  });
});
