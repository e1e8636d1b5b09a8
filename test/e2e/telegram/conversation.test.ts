import { describe, expect, it } from 'vitest';
import type { StoredMessage } from './fake-rules.js';
import { newGroup, newUser } from './harness.js';
import { driveToCompletion } from '../live-stack.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';

/**
 * The whole product through Telegram: real grammY against the fake Bot API, the real core, the
 * sandbox swap service on a ManualClock, real Redis and the tracking engine pushing status cards.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];

const world = useWorld('tg-e2e');

const isStatusCard = (m: StoredMessage) => /^Swap [0-9a-f]+: /.test(m.text ?? '');
const swapIdOf = (m: StoredMessage): string => {
  const id = /Swap id: ([0-9a-f-]{36})/.exec(m.caption ?? m.text ?? '')?.[1];
  if (!id) throw new Error(`no swap id in ${m.caption ?? m.text}`);
  return id;
};

/** Answers the address, skips the refund address and refuel, and confirms. */
async function confirmSwap(u: TgUser): Promise<{ question: StoredMessage; confirm: StoredMessage }> {
  const steps = await u.toConfirmation(EVM);
  await u.presses('Confirm');
  return steps;
}

let aliceSwap = '';
let aliceChat: TgUser | undefined;

describe('a swap from quote to completion, in a private chat', () => {
  it('quote, Swap this, address, Confirm, deposit card with QR, status card edited as the swap moves', async () => {
    const alice = newUser('Alice');
    const a = new TgUser(world.fake, alice, world.fake.privateChat(alice));
    a.says('/quote 100 USDC arbitrum base');
    const quote = await a.sees('You send: 100 USDC on Arbitrum One');
    expect(quote.html).toContain('<b>Quote: USDC Arbitrum One → USDC Base</b>');
    expect(a.button('Refresh').button.callback_data).toBeTruthy();

    // The quote stays; the swap wizard starts below it and asks with a ForceReply.
    await a.presses('Swap this');
    const ask = await a.sees('Send the address on Base');
    expect(ask.message_id).toBeGreaterThan(quote.message_id);
    expect(world.fake.message(a.chat.id, quote.message_id)!.text).toContain('You send: 100 USDC');
    expect((await a.prompt()).markup).toMatchObject({ force_reply: true, input_field_placeholder: expect.any(String) });

    const steps = await confirmSwap(a);
    // Button steps edit the wizard's message in place instead of stacking new ones.
    expect(steps.confirm.message_id).toBe(steps.question.message_id);
    expect(steps.confirm.versions.length).toBeGreaterThanOrEqual(1);
    const deposit = await waitFor(() => a.messages().find((m) => m.photoSize), 'the deposit card');
    expect(deposit.caption).toContain('Send exactly 100 USDC on Arbitrum One');
    const upload = world.fake.callsTo('sendPhoto').find((c) => c.ok && Number(c.payload.chat_id) === alice.id)!;
    expect(Array.from(upload.photoBytes!.slice(0, 4))).toEqual(PNG_MAGIC);
    const copies = (deposit.markup!.inline_keyboard as Array<Array<Record<string, unknown>>>).flat().filter((b) => 'copy_text' in b);
    const address = (copies.find((b) => b.text === 'Copy address')!.copy_text as { text: string }).text;
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(deposit.caption).toContain(address);
    expect(copies.find((b) => b.text === 'Copy amount')!.copy_text).toEqual({ text: '100' });
    const swapId = swapIdOf(deposit);
    aliceSwap = swapId;
    aliceChat = a;

    // The creator's chat follows the swap: the worker posts its one status card as soon as the
    // swap exists, below the deposit card, before any deposit...
    const cardMsg = await waitFor(() => a.messages().find(isStatusCard), 'the status card');
    const first = cardMsg.text!;
    expect(first).toMatch(/Waiting for your deposit/);
    expect(cardMsg.message_id).toBeGreaterThan(deposit.message_id);
    world.sandbox.deposit(swapId);

    // ...and edits it in place as the sandbox swap moves; key moments come as new messages.
    await a.sees('Deposit seen');
    await driveToCompletion(world, swapId);
    const done = await waitFor(() => a.messages().find((m) => (m.text ?? '').startsWith('Swap completed')), 'the completion message');
    const card = world.fake.message(a.chat.id, cardMsg.message_id)!;
    expect(card.versions.length).toBeGreaterThanOrEqual(2);
    expect(card.text).not.toBe(first);
    expect(card.text).toMatch(/complete/i);
    expect(a.messages().filter(isStatusCard)).toHaveLength(1);
    expect(done.message_id).toBeGreaterThan(cardMsg.message_id);
    expect(world.logLines.join('')).not.toContain(world.fake.token.split(':')[1]!);
  });
});

describe('Swap again and saved addresses, in a private chat', () => {
  it('Swap again on the completion message reaches the confirmation with the same destination; the address is offered next time', async () => {
    const a = aliceChat!;
    // Its callback data fits Telegram's 64 bytes (the swap id travels, not the route).
    expect(Buffer.byteLength(String(a.button('Swap again').button.callback_data))).toBeLessThanOrEqual(64);
    await a.presses('Swap again');
    const confirm = await a.sees('Confirm your swap');
    expect(confirm.text).toContain(EVM);
    expect(confirm.text).toContain('100 USDC on Arbitrum One');

    a.says('/swap 10 USDC arbitrum optimism');
    await a.sees('Or pick one you used before:');
    await a.presses('0xd8dA…6045');
    await a.sees('for refunds');
  });
});

describe('in a group', () => {
  it('deposit details never reach the group: a user who never opened a private chat gets a deeplink, and /start brings the card', async () => {
    const carol = newUser('Carol');
    const group = newGroup('Swap club');
    const g = new TgUser(world.fake, carol, group);
    g.says('/swap 15 usdc arbitrum base');
    await g.sees('address on Base');
    await confirmSwap(g);
    const fallback = await g.sees('Open a private chat with me');
    const url = String(g.button('Get deposit details').button.url);
    expect(url).toMatch(new RegExp(`^https://t\\.me/${world.fake.bot.username}\\?start=dep_[0-9a-f]{32}$`));
    expect(fallback.markup).toBeDefined();
    expect(world.fake.callsTo('sendPhoto').map((c) => [Number(c.payload.chat_id), c.errorCode])).toContainEqual([carol.id, 403]);
    for (const m of g.messages()) expect(m.text ?? m.caption ?? '').not.toContain('Send exactly');

    // Carol follows the link: Telegram opens the private chat with "/start <payload>".
    const dm = new TgUser(world.fake, carol, world.fake.privateChat(carol));
    dm.says(`/start ${url.split('start=')[1]}`);
    const card = await waitFor(() => dm.messages().find((m) => m.photoSize), 'the deposit card in private');
    expect(card.caption).toContain('Send exactly 15 USDC on Arbitrum One');
  });

  it('"Continue privately" resumes the same draft in the private chat', async () => {
    const dan = newUser('Dan');
    const g = new TgUser(world.fake, dan, newGroup());
    g.says(`/swap@${world.fake.bot.username} 12 usdc arbitrum base`);
    await g.sees('address on Base');
    const url = String(g.button('Continue privately').button.url);
    const dm = new TgUser(world.fake, dan, world.fake.privateChat(dan));
    dm.says(`/start ${url.split('start=')[1]}`);
    const resumed = await dm.sees('Continuing where you left off');
    expect(resumed.text).toContain('So far: 12 USDC on Arbitrum One → USDC on Base');
    await confirmSwap(dm);
    const card = await waitFor(() => dm.messages().find((m) => m.photoSize), 'the deposit card');
    expect(card.caption).toContain('Send exactly 12 USDC on Arbitrum One');
  });

  it('/track is for the group admins: a member is refused, an admin starts a masked card', async () => {
    expect(aliceSwap).not.toBe('');
    const group = newGroup('Trackers');
    const member = new TgUser(world.fake, newUser('Eve'), group);
    // An admin bot: Telegram takes its ephemeral messages without a button press.
    world.fake.setMember(group.id, world.fake.bot.id, 'administrator');
    member.says(`/track ${aliceSwap}`);
    // The refusal is for the member alone: an ephemeral message, nothing in the group.
    await waitFor(
      () => world.fake.ephemeral.to(group.id, member.user.id).find((m) => m.text.includes('Only admins can do that here')),
      'the ephemeral refusal',
    );
    expect(member.messages()).toHaveLength(0);
    const admin = new TgUser(world.fake, newUser('Frank'), group);
    world.fake.setMember(group.id, admin.user.id, 'administrator');
    admin.says(`/track ${aliceSwap}`);
    const card = await waitFor(() => admin.messages().find(isStatusCard), 'the group status card');
    expect(card.text).not.toContain(EVM);
  });
});
