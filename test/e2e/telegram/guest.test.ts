import type { Chat } from 'grammy/types';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../fakes/bodies.js';
import { waitFor } from '../../support/wait.js';
import { newGroup, newUser } from './harness.js';
import { TgUser, useWorld } from './world.js';
import { swapRequest } from '../../support/swaps.js';

/**
 * Guest mode (Bot API 10.0) through real grammY, the real core and the sandbox: "@bot <swap id |
 * hash | address | quote>" in a chat the bot is not in comes as a guest_message and is answered by
 * answerGuestQuery with one result: the swap's masked card with a deep link to the full card in
 * the private chat, or the quote.
 */
const world = useWorld('tg-guest');
const DEST = '0x1111111111111111111111111111111111111111';
let swapId = '';
let hash = '';
let depositAddress = '';

beforeAll(async () => {
  const created = await world.api.createSwap(swapRequest(DEST));
  swapId = created.swap.id;
  depositAddress = String(
    (created as unknown as { deposit_actions?: Array<{ to_address?: string }> }).deposit_actions?.[0]?.to_address ?? '',
  );
  world.sandbox.deposit(swapId);
  world.clock.advance(20_000);
  const details = await world.api.getSwap(swapId);
  hash = details.swap.transactions.find((t) => t.type === 'input')?.transaction_hash ?? '';
});

const support = (): Chat => newGroup('Support desk (bot not a member)');
const buttons = (r: Json): Json[] => (((r.reply_markup as Json | undefined)?.inline_keyboard ?? []) as Json[][]).flat();

async function mention(text: string, from = newUser('Guest')): Promise<{ result: Json; text: string }> {
  const id = world.fake.guestMention(from, support(), `@${world.fake.bot.username} ${text}`);
  return waitFor(() => world.fake.guest.answers.get(id), `the guest answer to "${text}"`);
}

describe('Telegram guest mode', () => {
  it('a swap id: the masked status card, one result, and a deep link to the full card privately', async () => {
    expect(swapId).not.toBe('');
    const answer = await mention(`where is ${swapId}?`);
    expect(answer.result.type).toBe('article');
    expect(String(answer.result.id)).toMatch(/^status:/);
    expect(answer.text).toContain(swapId.slice(0, 8));
    expect(answer.text).not.toContain(DEST);
    if (depositAddress) expect(answer.text).not.toContain(depositAddress);
    const [open] = buttons(answer.result);
    expect(open?.text).toBe('Open the full card');
    const payload = String(open?.url).split('start=')[1] ?? '';
    expect(payload).toBe(`st_${swapId.replace(/-/g, '')}`);
    // The link opens the card in the private chat (masked: this user did not create the swap).
    const u = newUser('Opener');
    const dm = new TgUser(world.fake, u, world.fake.privateChat(u));
    dm.says(`/start ${payload}`);
    const card = await dm.sees(swapId.slice(0, 8));
    expect(card.text).not.toContain(DEST);
  });

  it('a deposit transaction hash finds its swap', async () => {
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const answer = await mention(hash);
    expect(String(answer.result.id)).toBe(`status:${swapId.slice(0, 8)}`);
    expect(answer.text).not.toContain(DEST);
  });

  it('an address shows its newest swap, masked', async () => {
    const answer = await mention(DEST);
    expect(String(answer.result.id)).toMatch(/^status:/);
    expect(answer.text).not.toContain(DEST);
  });

  it('quote text: the quote card, as inline mode makes it', async () => {
    const answer = await mention('500 usdc arbitrum base');
    expect(String(answer.result.id)).toMatch(/^quote:/);
    expect(answer.result.title).toBe('500 USDC on Arbitrum One → USDC on Base');
    expect(answer.text).toMatch(/You receive: [\d.,]+ USDC on Base/);
  });

  it('nothing readable: a helpful result (the how-to), never an error', async () => {
    const answer = await mention('hello there');
    expect(answer.text).toContain('100 usdc arbitrum base');
    expect(String(answer.result.id)).not.toBe('error');
  });

  it('the bot asks for guest_message updates; the fake refuses an array of results', async () => {
    const polls = world.fake.callsTo('getUpdates');
    const allowed = polls[polls.length - 1]?.payload.allowed_updates;
    expect(typeof allowed === 'string' ? JSON.parse(allowed) : allowed).toContain('guest_message');
    const id = world.fake.guest.newQuery();
    const article = { type: 'article' as const, id: 'a', title: 'x', input_message_content: { message_text: 'x' } };
    await expect(world.telegram.bot.api.raw.answerGuestQuery({ guest_query_id: id, result: [article] as never })).rejects.toThrow(
      /InlineQueryResult/,
    );
  });
});
