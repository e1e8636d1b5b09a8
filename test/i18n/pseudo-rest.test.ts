import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Incoming } from '../../src/contracts/incoming.js';
import { replyButtons, type Reply } from '../../src/contracts/reply.js';
import { errorReply } from '../../src/bot/kernel/errors-text.js';
import { t } from '../../src/i18n/index.js';
import { InvalidRequestError } from '../../src/layerswap/errors.js';
import { startHarness, type Harness } from '../bot/support/conversation.js';
import { actionOf, leftovers, readable, serviceNames } from './pseudo-check.js';
import { swapRequest } from '../support/swaps.js';

/**
 * The rest of the command side in the pseudo-locale (see pseudo-commands.test.ts): /status,
 * /track, /tracking, /untrack, /settings, /language, /networks, /routes, /cancel, the replies to
 * bad input, the group admin rule, the rate limit, autocomplete labels and a value our client
 * refused to send. Any English word outside ⟦…⟧ fails.
 */
const ADDRESS = '0x1111111111111111111111111111111111111111';

describe('no English outside the catalogs in the rest of the commands', () => {
  let h: Harness;
  let limited: Harness;
  let names: string[];
  let swapId = '';
  beforeAll(async () => {
    [h, limited] = await Promise.all([startHarness(), startHarness({ commandsPerMinute: 2 })]);
    names = await serviceNames(h.api);
    swapId = (await h.api.createSwap(swapRequest(ADDRESS))).swap.id;
  });
  afterAll(async () => {
    await h?.close();
    await limited?.close();
  });

  const who = {
    platform: 'telegram' as const,
    userName: 'P',
    userId: 'pseudo-rest',
    chatId: 'pseudo-rest',
    chatKind: 'private' as const,
    locale: 'pseudo',
  };
  const say = (extra: Partial<Incoming>, core = h.core): Promise<Reply[]> => core.handle({ ...who, ...extra });
  const check = (replies: Reply[]): void => {
    expect(replies.length).toBeGreaterThan(0);
    expect(leftovers(replies.flatMap(readable), names)).toEqual([]);
  };
  const press = (replies: Reply[], label: string): Promise<Reply[]> => {
    return say({ action: actionOf(replies, label) });
  };

  it("/status, /track, /tracking and /untrack of a swap, and pressing the card's buttons", async () => {
    const status = await say({ text: `/status ${swapId}` });
    expect(status[0]!.title).toContain(swapId.slice(0, 8));
    check(status);
    check(await press(status, t('pseudo', 'statusCard.button.refresh')));
    check(await say({ text: `/track ${swapId}` }));
    const tracking = await say({ text: '/tracking' });
    expect(JSON.stringify(tracking)).toContain(swapId.slice(0, 8));
    check(tracking);
    check(await say({ text: `/untrack ${swapId}` }));
    check(await say({ text: '/tracking' }));
    check(await say({ text: `/track ${ADDRESS}` }));
  });

  it('/settings (the card, a typed change, a bad value), /language and its buttons', async () => {
    const settings = await say({ text: '/settings' });
    check(settings);
    check(await say({ text: '/settings quiet 22-7 UTC' }));
    check(await say({ text: '/settings quiet 99-100 Mars/Base' }));
    const language = await say({ text: '/language' });
    check(language);
    expect(language.flatMap(replyButtons).map((b) => b.label)).toEqual(expect.arrayContaining(['English', 'Русский', '简体中文']));
  });

  it('/networks, /routes and /cancel', async () => {
    check(await say({ text: '/networks' }));
    check(await say({ text: '/routes arbitrum' }));
    check(await say({ text: '/cancel' }));
    await say({ text: '/swap 10 usdc arbitrum base' });
    check(await say({ text: '/cancel' }));
  });

  it('bad input: unknown commands, nonsense, bad ids, hashes and amounts', async () => {
    for (const text of [
      '/frobnicate',
      'hello there',
      '/status 12345',
      '/status',
      '/track',
      '/untrack nothing',
      '/quote -5 usdc arbitrum base',
      '/quote 100 zzz arbitrum base',
      '/routes nowhere',
      `/status 0x${'ab'.repeat(32)}`,
    ])
      check(await say({ text }));
    check(await say({ action: 'zz:forged' }));
  });

  it('a group: a member who is not an admin is refused /track', async () => {
    check(
      await say({
        text: `/track ${swapId}`,
        chatId: 'pseudo-group',
        chatKind: 'group',
        chatLocale: 'pseudo',
        isChatAdmin: () => Promise.resolve(false),
      }),
    );
  });

  it('the rate limit', async () => {
    let last: Reply[] = [];
    for (let i = 0; i < 4; i++) last = await say({ text: '/help' }, limited.core);
    expect(last[0]!.target).toBe('ephemeral');
    check(last);
  });

  it('autocomplete labels and a value our client refused to send', async () => {
    const tokens = await h.core.suggest('token', '', { network: 'ARBITRUM_MAINNET', locale: 'pseudo' });
    expect(tokens.map((s) => s.label[0])).toContain('⟦');
    expect(
      leftovers(
        tokens.map((s) => s.label),
        names,
      ),
    ).toEqual([]);
    const refused = errorReply(
      new InvalidRequestError('GET /api/v2/swaps/{swapId}', 'swapId', 'x is not a swap id: a swap id is a UUID'),
      'pseudo',
    );
    check([refused]);
    expect(readable(refused).join(' ')).not.toContain('UUID');
  });
});
