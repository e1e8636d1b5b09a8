import { describe, expect, test } from 'vitest';
import { replyText, type Reply } from '../../src/contracts/reply.js';
import { parseLookup } from '../../src/bot/follow/lookup/shape.js';
import { say } from '../../src/bot/kernel/problem.js';
import { csvCell } from '../../src/bot/history/csv.js';
import { allText, card, ChatUser, useHarness } from './support/conversation.js';

const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const h = useHarness();

const createSwap = (userId: string): Promise<{ id: string; deposit: Reply[] }> =>
  new ChatUser(h, { userId }).createsSwap('/swap 100 USDC arbitrum base', DEST);

async function depositHash(id: string): Promise<string> {
  const d = await h.api.getSwap(id);
  const hash = d.swap.transactions.find((t) => t.type === 'input')?.transaction_hash;
  if (!hash) throw new Error('no deposit transaction yet');
  return hash;
}

describe('what /track and /status take, by shape', () => {
  test.each([
    ['3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b', 'swap'],
    [`0x${'ab'.repeat(32)}`, 'transaction'],
    ['ab'.repeat(32), 'transaction'],
    ['5'.repeat(88), 'transaction'],
    [DEST, 'address'],
    ['TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'address'],
    ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'address'],
    ['7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', 'address'],
  ])('%s is a %s', (input, kind) => {
    const r = parseLookup(input);
    expect(r.ok && r.value.kind).toBe(kind);
  });

  test('a 0x hash of the wrong length gets a specific reason', () => {
    const r = parseLookup(`0x${'a'.repeat(50)}`);
    expect(r.ok).toBe(false);
    expect(!r.ok && say('en', r.reason)).toBe(
      'That has 50 hex digits after 0x: too short for a transaction hash (64) or an EVM address (40).',
    );
  });

  test('spreadsheet formulas in a CSV cell are defused and quotes escaped', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell(12.5)).toBe('12.5');
  });
});

describe('/track by deposit transaction and by address', () => {
  test('a deposit hash finds its swap in a fresh chat and follows it; the destination address lists it', async () => {
    const { id } = await createSwap('ta1');
    h.sandbox.deposit(id);
    const hash = await depositHash(id);
    const other = new ChatUser(h, { userId: 'ta1-other' });
    const found = await other.says(`/track ${hash}`);
    card(found, { title: `Found swap ${id.slice(0, 8)}`, contains: [id] });
    card(found, { title: 'Following this swap' });
    expect([...(h.tracking.follows.get('console:private:ta1-other')?.keys() ?? [])]).toContain(id);

    const listed = await other.says(`/track ${DEST}`);
    const list = card(listed, {
      title: 'Swaps of this address',
      contains: [id, '100 USDC Arbitrum One → USDC Base', 'Deposit seen, confirming'],
      buttons: [`Follow ${id.slice(0, 8)}`, 'Show expired'],
    });
    expect(replyText(list)).toContain(DEST);
  });

  test('bad input gets a specific reply: wrong shape, an unknown hash, an address with no swaps', async () => {
    const u = new ChatUser(h, { userId: 'ta2' });
    card(await u.says('/track 0x1234'), { title: 'Which swap?', contains: ['4 hex digits after 0x'] });
    card(await u.says(`/track 0x${'cd'.repeat(32)}`), {
      title: 'No swap found',
      contains: ['No swap with that deposit transaction yet: if you sent it minutes ago, it may still be confirming.'],
    });
    card(await u.says('/status 0x52908400098527886E0F7030069857D2E4169EE7'), {
      title: 'No swaps found',
      contains: ['No swaps for that address.', 'Show expired'],
    });
    expect(h.tracking.follows.get('console:private:ta2')).toBeUndefined();
  });

  test('in a group, /track by hash is for admins, and an address list shows masked addresses', async () => {
    const { id } = await createSwap('ta3');
    h.sandbox.deposit(id);
    const hash = await depositHash(id);
    const member = new ChatUser(h, { userId: 'ta3-m', chatId: 'g1', chatKind: 'group', admin: false });
    card(await member.says(`/track ${hash}`), { title: 'Only admins can do that here' });
    const listed = await member.says(`/status ${DEST}`);
    const text = allText(listed);
    expect(text).toContain('0xd8dA…6045');
    expect(text).not.toContain(DEST);
    const admin = new ChatUser(h, { userId: 'ta3-a', chatId: 'g1', chatKind: 'group', admin: true });
    card(await admin.says(`/track ${hash}`), { title: 'Following this swap' });
  });
});

describe("I've sent it", () => {
  test('asks for the hash, speeds up, shows confirmations before the status moves, then follows', async () => {
    const { id, deposit } = await createSwap('ts1');
    const u = new ChatUser(h, { userId: 'ts1' });
    const asked = await u.presses("I've sent it", deposit);
    expect(asked[0]?.prompt?.label).toBe('Deposit transaction hash');
    card(await u.says(DEST), { title: 'Not a transaction hash', contains: ['a wallet address'] });
    h.sandbox.deposit(id);
    h.clock.advance(1_000);
    const hash = await depositHash(id);
    const answered = await u.says(hash);
    const head = card(answered, { title: 'Looking for your deposit', contains: [/We see your transaction: \d\/3 confirmations/] });
    expect(replyText(head)).not.toMatch(/Send exactly/);
    expect((await h.api.getSwap(id)).swap.status).toBe('user_transfer_pending');
    card(answered, { title: /following/i });
    // The swap is polled now, not at the next waiting poll: no webhook says a deposit was seen.
    expect(h.tracking.polledNow).toEqual([id]);
    // The question is answered: the next plain text is not taken as a hash.
    card(await u.says(hash), { title: 'Not sure what you mean' });
  });

  test('a speed-up the service refuses is never shown as an error', async () => {
    const { id, deposit } = await createSwap('ts2');
    const u = new ChatUser(h, { userId: 'ts2' });
    await u.presses("I've sent it", deposit);
    h.sandbox.injectFault({ status: 500, count: 1, pathPrefix: `/api/v2/swaps/${id}/deposit_speedup` });
    const answered = await u.says(`0x${'ef'.repeat(32)}`);
    card(answered, { title: 'Looking for your deposit', contains: ['not visible on Arbitrum One yet'] });
    expect(answered.filter((r) => r.tone === 'error')).toEqual([]);
  });

  test('the words point at the status card only when the chat has one', async () => {
    const { id, deposit } = await createSwap('ts4');
    const u = new ChatUser(h, { userId: 'ts4' });
    const hash = `0x${'ab'.repeat(32)}`;
    // No status card in this chat yet: none is claimed, the words say when it comes.
    await u.presses("I've sent it", deposit);
    const before = allText(await u.says(hash));
    expect(before).toContain('A live status card for the swap is posted in this chat once Layerswap sees the deposit.');
    expect(before).toContain("its live status card is posted here at the swap's next change");
    expect(before).not.toMatch(/status card in this chat updates|status card is in this chat/);
    // With the card there, they point at it.
    h.tracking.cards.add(`console:private:ts4|${id}`);
    await u.presses("I've sent it", deposit);
    const after = allText(await u.says(hash));
    expect(after).toContain("The swap's status card in this chat updates once Layerswap sees the deposit.");
    expect(after).toContain('its live status card is in this chat and keeps updating');
  });

  test('a command drops the question', async () => {
    const { deposit } = await createSwap('ts3');
    const u = new ChatUser(h, { userId: 'ts3' });
    await u.presses("I've sent it", deposit);
    await u.says('/help');
    card(await u.says(`0x${'ef'.repeat(32)}`), { title: 'Not sure what you mean' });
  });
});

describe('Where is my swap?', () => {
  test('from /help: paste the deposit hash, get the status in words and what to do', async () => {
    const { id } = await createSwap('tw1');
    h.sandbox.deposit(id);
    const hash = await depositHash(id);
    const u = new ChatUser(h, { userId: 'tw1-friend' });
    await u.says('/help');
    const asked = await u.presses('Where is my swap?');
    expect(asked[0]?.prompt).toBeDefined();
    const answer = await u.says(hash);
    card(answer, { title: /Deposit seen, confirming/, contains: ['What to do: Wait: your deposit is confirming'] });
  });

  test('an expired swap with a late deposit: contact support with the summary', async () => {
    const { id } = await createSwap('tw2');
    h.clock.advance(7 * 3_600_000);
    const u = new ChatUser(h, { userId: 'tw2' });
    const status = await u.says(`/status ${id}`);
    card(status, { title: 'Expired', buttons: ['Where is my swap?'] });
    await u.presses('Where is my swap?', status);
    const answer = await u.says(id);
    card(answer, {
      title: 'Expired',
      contains: ['contact Layerswap support with the summary below', `Swap id: ${id}`],
      buttons: ['Copy support summary'],
    });
    // A swap looked up, not followed, has no history: the summary has no empty "History:" line.
    expect(allText(answer)).not.toContain('History');
  });
});

describe('/history additions', () => {
  test('swaps to my addresses (toggle) and a CSV export sent as a file', async () => {
    const { id } = await createSwap('th1');
    const stranger = h.sandbox.injectSwap({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      destination_address: DEST,
      amount: 50,
    });
    const u = new ChatUser(h, { userId: 'th1' });
    const own = await u.says('/history');
    expect(allText(own)).toContain(id);
    expect(allText(own)).not.toContain(stranger);
    const both = await u.presses('Include swaps to my addresses', own);
    card(both, { contains: [id, stranger, 'to your address'], buttons: ['Only swaps made here', 'Export CSV'] });
    const exported = await u.presses('Export CSV', own);
    const file = exported[0]?.attachment;
    expect(file?.filename).toMatch(/^swapbot-swaps-\d{4}-\d\d-\d\d\.csv$/);
    const csv = new TextDecoder().decode(file?.data);
    const [header, row] = csv.split('\r\n');
    expect(header).toContain('date,swap_id,status');
    expect(row).toContain(`${id},user_transfer_pending,ARBITRUM_MAINNET,USDC,100,BASE_MAINNET,USDC`);
    expect(exported[0]?.target).toBe('here');
  });

  test('in a group the export goes privately', async () => {
    await createSwap('th2');
    const u = new ChatUser(h, { userId: 'th2', chatId: 'g2', chatKind: 'group' });
    const exported = await u.sendsAction('hx');
    expect(exported[0]?.target).toBe('dm');
    expect(exported[0]?.dmFallback?.attachment).toBeUndefined();
  });
});
