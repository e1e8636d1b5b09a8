import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { ConsoleMessenger } from '../../src/platforms/console/adapter.js';
import { useHarness } from '../bot/support/conversation.js';
import { startPipeChat, type PipeChatOptions } from './pipe-chat.js';

const h = useHarness();

const pipeChat = (opts: PipeChatOptions = {}) => startPipeChat(h, opts);

describe('terminal chat', () => {
  test('/quote prints a card with numbered buttons; typing "1" presses Swap this; on to the deposit card', async () => {
    const c = pipeChat();
    c.type('/quote 100 USDC arbitrum base');
    const card = await c.waitFor('[1] Swap this  [2] Refresh');
    expect(card).toContain('ℹ️  Quote: USDC Arbitrum One → USDC Base');
    expect(card).toContain('  You send: 100 USDC on Arbitrum One');
    let at = c.text.length;
    c.type('1');
    expect(await c.waitFor('› Your address on Base', at)).toContain('So far: 100 USDC on Arbitrum One → USDC on Base');
    at = c.text.length;
    c.type('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
    // A prompt is open: its buttons are [#n] and a plain number would be an answer.
    // A prompt is open: buttons are numbered on from the cards above ([#3] Cancel was the address
    // question's; [#4] is the recommended refund address, the one just given).
    await c.waitFor('[#4] Use 0xd8dA…6045 (recommended)', at);
    await c.waitFor('[#5] Skip (no refund address)', at);
    await c.says('#5', '[7] Yes, refuel  [8] No refuel');
    await c.says('8', '[10] Confirm  [11] Cancel');
    const deposit = await c.says('10', '[14] Status  [15] Track');
    expect(deposit).toContain('Send exactly 100 USDC on Arbitrum One');
    // A payment request (EIP-681 for ERC-20), so a wallet fills in token and amount.
    expect(deposit).toContain('[image: QR code of a payment request for 100 USDC to the deposit address]');
    expect(deposit).toContain('[12] Copy address ⧉  [13] Copy amount ⧉');
    expect(await c.says('12', /copied: 0x[0-9a-fA-F]{40}/)).toBeTruthy();
    c.end();
    await c.chat.done;
    expect(c.ended).toBe(true);
  });

  test('step by step with buttons, a wrong number, and plain numbers as answers to a prompt', async () => {
    const c = pipeChat();
    c.type('/quote');
    await c.waitFor('Which network do you send from?');
    let at = c.text.length;
    c.type('999');
    await c.waitFor(/There is no button 999: the buttons on screen are numbered 1 to \d+\./, at);
    await c.presses('Arbitrum One', 'Which token do you send from Arbitrum One?');
    await c.presses('USDC', 'Where should the USDC go?');
    await c.presses('Ethereum', '› Amount of USDC');
    at = c.text.length;
    c.type('2'); // an answer, not a button: below the route's minimum
    const { min_amount: min } = await h.api.getLimits({
      source_network: 'ARBITRUM_MAINNET',
      source_token: 'USDC',
      destination_network: 'ETHEREUM_MAINNET',
      destination_token: 'USDC',
    });
    await c.waitFor(`2 USDC is below the minimum of ${min} USDC for this route.`, at);
    await c.says('50', 'Quote: USDC Arbitrum One → USDC Ethereum');
    c.end();
    await c.chat.done;
  });

  test('user text cannot send terminal escapes', async () => {
    const c = pipeChat();
    c.type('/quote 1 usdc \u001b[31mevil\u001b[0m base');
    await c.waitFor('There is no network called');
    expect(c.text).not.toContain('\u001b');
    c.end();
    await c.chat.done;
  });

  test('on a terminal the deposit QR is drawn as characters', async () => {
    const c = pipeChat({ isTTY: true });
    // Lines are answered in order, each after the replies to the one before, so a script can run ahead.
    // Buttons are numbered on from card to card: Skip is #3 (Cancel was #1, the recommended refund address #2), No refuel 6, Confirm 8.
    for (const l of ['/swap 10 usdc arbitrum base', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', '#3', '6', '8']) c.type(l);
    const out = await c.waitFor(/Deposit for swap[\s\S]*\[image: QR code[^\n]*\n[^\n]*[▄▀█]{6}/);
    expect(out).toMatch(/\[\d+\] Copy address/);
    c.end();
    await c.chat.done;
  });
});

describe('ConsoleMessenger', () => {
  test('pushed cards print as updates; identical edits print nothing', async () => {
    const output = new PassThrough();
    let text = '';
    output.on('data', (d: Buffer) => {
      text += d.toString();
    });
    const m = new ConsoleMessenger(output);
    const target = { platform: 'console' as const, chatId: 'u', chatKind: 'private' as const };
    const ref = await m.send(target, {
      title: 'Swap 1: Waiting for your deposit',
      lines: [[{ kind: 'text', text: 'waiting' }]],
      target: 'here',
    });
    expect(ref).toEqual({ platform: 'console', chatId: 'u', messageId: '1' });
    expect(text).toContain('── update ──\nSwap 1: Waiting for your deposit\nwaiting');
    const same = text.length;
    expect(
      await m.edit(ref, { title: 'Swap 1: Waiting for your deposit', lines: [[{ kind: 'text', text: 'waiting' }]], target: 'here' }),
    ).toEqual(ref);
    expect(text.length).toBe(same);
    await m.edit(ref, { title: 'Swap 1: Completed', tone: 'success', lines: [[{ kind: 'text', text: 'done' }]], target: 'here' });
    expect(text.slice(same)).toContain('updated: ✅ Swap 1: Completed\ndone');
  });

  test('the chat’s messenger shares its buttons: a pushed Refresh can be pressed by number', async () => {
    const c = pipeChat({ userId: 'push-user' });
    c.type('/quote 100 USDC arbitrum base');
    await c.waitFor('[1] Swap this');
    await c.chat.messenger.send(
      { platform: 'console', chatId: 'push-user', chatKind: 'private' },
      { title: 'Pushed', lines: [], buttons: [[{ kind: 'action', label: 'History', action: 'hs:0' }]], target: 'here' },
    );
    expect(c.text).toContain('[3] History');
    const at = c.text.length;
    c.type('3');
    await c.waitFor('No swaps yet', at);
    c.end();
    await c.chat.done;
  });
});
