import { describe, expect, it } from 'vitest';
import type { StoredMessage } from './fake-rules.js';
import { newUser } from './harness.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';

/**
 * Confirm pressed many times (an impatient user, a laggy client resending): one swap, and one
 * deposit card in the creator's chat, whatever the presses. Real grammY against the fake Bot API,
 * the real core, the sandbox and real Redis.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

const world = useWorld('tg-confirm-presses');

const isDepositCard = (m: StoredMessage) => /Deposit for swap/.test(m.caption ?? m.text ?? '');

describe('Confirm pressed six times at once', () => {
  it('creates one swap and sends one deposit card; the other presses get a short private note', async () => {
    const user = newUser('Impatient');
    const u = new TgUser(world.fake, user, world.fake.privateChat(user));
    u.says('/swap 100 USDC arbitrum base');
    const prompt = await waitFor(
      () => [...u.messages()].reverse().find((m) => m.markup !== undefined && 'force_reply' in m.markup),
      'the address prompt',
    );
    u.says(EVM, { replyTo: prompt.message_id });
    await u.sees('for refunds');
    await u.presses('Skip (no refund address)');
    const asked = await u.sees(/Confirm your swap|Refuel/);
    if (!/Confirm your swap/.test(asked.text ?? '')) {
      await u.presses('No refuel');
      await u.sees('Confirm your swap');
    }
    const before = world.sandbox.requestCount('createSwap');
    const { message, button } = u.button('Confirm');
    const presses = Array.from({ length: 6 }, () => world.fake.press(user, u.chat.id, message.message_id, String(button.callback_data)));
    await waitFor(
      () => presses.every((id) => world.fake.callsTo('answerCallbackQuery').some((c) => c.payload.callback_query_id === id)),
      'every press answered',
    );

    expect(world.sandbox.requestCount('createSwap')).toBe(before + 1);
    expect(u.messages().filter(isDepositCard)).toHaveLength(1);
    // The presses after the first were told where the card is, in their callback answer.
    const alerts = world.fake
      .callsTo('answerCallbackQuery')
      .filter((c) => presses.includes(String(c.payload.callback_query_id)) && typeof c.payload.text === 'string');
    expect(alerts.map((c) => String(c.payload.text)).join('\n')).toMatch(/already created|already being created/);
  });
});
