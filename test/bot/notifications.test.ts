import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { createCore } from '../../src/bot/create-core.js';
import type { BotCore } from '../../src/bot/core.js';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import type { TrackingService } from '../../src/contracts/tracking.js';
import { CatalogCache } from '../../src/layerswap/catalog-cache.js';
import { createTracking } from '../../src/tracking/engine.js';
import { testRedis, testRedisUrl } from '../support/redis.js';
import { startHarness as startTracking, type Harness as TrackingHarness } from '../tracking/support/harness.js';
import { allText, card, ChatUser, findButton } from './support/conversation.js';

/**
 * Mute, Stop and /settings as conversations with the real tracking behind them: the core, the
 * sandbox over HTTP on a ManualClock, real Redis, the tracking workers delivering the real cards
 * (with Mute and Stop) to a recording console messenger. Settings are checked where they matter:
 * in what tracking sends, and in a fresh core and tracking instance on the same Redis.
 */
let h: TrackingHarness;
let core: BotCore;
let catalog: CatalogCache;

const newCore = (tracking: TrackingService): BotCore =>
  createCore({
    api: h.client,
    catalog,
    redis: testRedis(`${h.prefix}:core`),
    keyPrefix: `${h.prefix}:core`,
    tracking,
    limits: { commandsPerMinute: 1000, draftTtlSeconds: 600 },
    now: () => h.clock.now(),
  });

beforeAll(async () => {
  h = await startTracking({ tracking: { pacing: () => undefined } });
  await h.startWorkers({ render: trackingRenderer });
  catalog = new CatalogCache(h.client, { ttlMs: 60_000, now: () => h.clock.now() });
  core = newCore(h.tracking.service);
});
afterAll(async () => {
  await h?.close();
});

const stack = () => ({ core });
const isCard = (id: string) => (r: Reply) => (r.title ?? '').startsWith(`Swap ${id.slice(0, 8)}: `);
/** What tracking delivered to a console chat: cards (sent or edited) and the other messages. */
const delivered = (chatId: string, id: string) => {
  const log = h.messengers.console.forChat(chatId);
  return {
    cards: log.filter((r) => isCard(id)(r.reply)),
    messages: log.filter((r) => r.op === 'send' && !isCard(id)(r.reply)).map((r) => r.reply.title),
  };
};

/** Follows in tracking's first poll: the chat's card is out. */
async function firstCard(chatId: string, id: string): Promise<Reply> {
  h.clock.advance(1_000);
  await h.settle([id]);
  const c = delivered(chatId, id).cards.at(-1);
  expect(c, 'the tracked card').toBeDefined();
  return c!.reply;
}

/** Deposit, then sandbox time until the swap completes and every chat has it all. */
async function complete(id: string): Promise<void> {
  await h.settleUntilCompleted(id, 8);
  expect((await h.tracking.swapState(id))?.status).toBe('completed');
}

describe('Mute and Stop on the tracked card', () => {
  it('Mute: the card keeps updating and no key-moment message comes; Unmute brings them back', async () => {
    const id = await h.createSwap();
    const u = new ChatUser(stack(), { userId: 'u-mute' });
    card(await u.says(`/track ${id}`), { title: 'Following this swap' });
    const tracked = await firstCard('u-mute', id);
    card([tracked], { buttons: ['Mute', 'Stop'] });

    const muted = card(await u.presses('Mute', [tracked]), { title: `Swap ${id.slice(0, 8)}`, buttons: ['Unmute', 'Stop'] });
    expect(muted.mode).toBe('edit');
    expect(await h.tracking.service.isMuted(id, { platform: 'console', chatId: 'u-mute', chatKind: 'private' })).toBe(true);

    h.sandbox.deposit(id);
    h.clock.advance(1_000);
    await h.settle([id]);
    const whileMuted = delivered('u-mute', id);
    expect(whileMuted.messages).toEqual([]);
    expect(replyText(whileMuted.cards.at(-1)!.reply)).not.toBe(replyText(tracked));
    // The worker's own edits carry Unmute now.
    expect(replyButtons(whileMuted.cards.at(-1)!.reply).map((b) => b.label)).toContain('Unmute');

    card(await u.presses('Unmute', u.last), { buttons: ['Mute', 'Stop'] });
    await complete(id);
    const after = delivered('u-mute', id);
    expect(after.messages).toEqual(['Swap completed']);
    expect(after.cards.filter((c) => c.op === 'send')).toHaveLength(1);
    expect(replyText(after.cards.at(-1)!.reply)).toMatch(/complet/i);
  });

  it('a muted swap completes with its card edited and no message at all', async () => {
    const id = await h.createSwap();
    const u = new ChatUser(stack(), { userId: 'u-mute2' });
    await u.says(`/track ${id}`);
    await u.presses('Mute', [await firstCard('u-mute2', id)]);
    h.sandbox.deposit(id);
    await complete(id);
    const d = delivered('u-mute2', id);
    expect(d.messages).toEqual([]);
    expect(
      d.cards
        .filter((c) => c.op === 'edit')
        .map((c) => replyText(c.reply))
        .join('\n'),
    ).toMatch(/complet/i);
  });

  it('Stop unfollows and takes Mute and Stop off the card; Undo follows again', async () => {
    const id = await h.createSwap();
    const chat: ChatTarget = { platform: 'console', chatId: 'u-stop', chatKind: 'private' };
    const u = new ChatUser(stack(), { userId: 'u-stop' });
    await u.says(`/track ${id}`);
    const replies = await u.presses('Stop', [await firstCard('u-stop', id)]);
    const edited = card(replies, { title: `Swap ${id.slice(0, 8)}`, buttons: ['Refresh'] });
    expect(edited.mode).toBe('edit');
    expect(replyButtons(edited).map((b) => b.label)).not.toEqual(expect.arrayContaining(['Stop']));
    expect(replyButtons(edited).map((b) => b.label)).not.toContain('Mute');
    card(replies, { title: 'Stopped following', buttons: ['Undo'] });
    expect(await h.tracking.service.listFollowed(chat)).toEqual([]);

    const undone = await u.presses('Undo');
    expect(undone[0]?.mode).toBe('edit');
    expect((await h.tracking.service.listFollowed(chat)).map((f) => f.swapId)).toEqual([id]);
  });
});

describe('/settings', () => {
  const group: ChatTarget = { platform: 'console', chatId: 'g-settings', chatKind: 'group' };

  it('buttons toggle, and the choice persists: a fresh core and tracking on the same Redis see it', async () => {
    const u = new ChatUser(stack(), { userId: 'u-settings' });
    const first = card(await u.says('/settings'), { title: 'Notification settings', buttons: ['🔔 Deposit seen', '🌙 22:00–07:00'] });
    card(await u.presses('🔔 Deposit seen', [first]), { buttons: ['🔕 Deposit seen'] });
    const quiet = card(await u.presses('🌙 22:00–07:00'), { contains: ['22:00–07:00 (UTC)'] });
    expect(quiet.mode).toBe('edit');
    // A private chat has no group-only settings.
    expect(replyButtons(quiet).map((b) => b.label)).not.toContain('✅ Quiet mode: off');

    const admin = new ChatUser(stack(), { userId: 'u-admin', chatId: group.chatId, chatKind: 'group', admin: true });
    const g = card(await admin.says('/settings'), { buttons: ['✅ Quiet mode: off', '≥ $1000', 'Amounts: shown'] });
    // Every button fits what the platforms show: 5 rows of at most 5.
    for (const r of [first, g]) {
      expect(r.buttons?.length).toBeLessThanOrEqual(5);
      for (const row of r.buttons ?? []) expect(row.length).toBeLessThanOrEqual(5);
    }
    await admin.presses('✅ Quiet mode: off');
    card(await admin.presses('≥ $1000'), { buttons: ['✅ Quiet mode: on'], contains: ['$1000'] });

    const tracking2 = createTracking({
      redis: testRedisUrl(),
      prefix: h.prefix,
      api: h.client,
      limits: { maxPerChat: 1000, maxPerUser: 1000 },
      cadence: { fastMs: 50, slowMs: 100, stuckFactor: 4 },
      now: () => h.clock.now(),
    });
    try {
      const core2 = newCore(tracking2.service);
      card(await new ChatUser({ core: core2 }, { userId: 'u-settings' }).says('/settings'), {
        buttons: ['🔕 Deposit seen'],
        contains: ['22:00–07:00 (UTC)'],
      });
      card(
        await new ChatUser({ core: core2 }, { userId: 'u-admin', chatId: group.chatId, chatKind: 'group', admin: true }).says('/settings'),
        { buttons: ['✅ Quiet mode: on'], contains: ['$1000'] },
      );
      expect(await tracking2.service.settings(group)).toMatchObject({ reactOnly: true, minUsd: 1000 });
    } finally {
      await tracking2.close();
    }
  });

  it('in a group, only admins: a member is refused privately and changes nothing, by command or button', async () => {
    const chat: ChatTarget = { platform: 'console', chatId: 'g-refuse', chatKind: 'group' };
    const admin = new ChatUser(stack(), { userId: 'a1', chatId: chat.chatId, chatKind: 'group', admin: true });
    const member = new ChatUser(stack(), { userId: 'm1', chatId: chat.chatId, chatKind: 'group' });
    card(await member.says('/settings'), { title: 'Only admins can do that here', target: 'ephemeral' });
    const button = findButton(await admin.says('/settings'), '✅ Quiet mode: off');
    if (button.kind !== 'action') throw new Error('not an action');
    card(await member.sendsAction(button.action), { title: 'Only admins can do that here', target: 'ephemeral' });
    expect((await h.tracking.service.settings(chat)).reactOnly).toBeUndefined();

    // The same for Mute on the group's card.
    const id = await h.createSwap();
    await admin.says(`/track ${id}`);
    const tracked = await firstCard(chat.chatId, id);
    card(await member.presses('Mute', [tracked]), { title: 'Only admins can do that here', target: 'ephemeral' });
    expect(await h.tracking.service.isMuted(id, chat)).toBe(false);
  });

  it('bad typed values get the specific message and change nothing', async () => {
    const u = new ChatUser(stack(), { userId: 'u-typed' });
    const admin = new ChatUser(stack(), { userId: 'a-typed', chatId: 'g-typed', chatKind: 'group', admin: true });
    expect(allText(await u.says('/settings quiet 25-7 X/Y'))).toContain('Hours go from 0 to 23.');
    expect(allText(await u.says('/settings quiet 22-7 Mars/Olympus'))).toContain('"Mars/Olympus" is not a time zone I know.');
    expect(allText(await u.says('/settings quiet soon'))).toContain('"soon" is not a range of hours.');
    expect(allText(await admin.says('/settings min -3'))).toContain('"-3" is not an amount in US dollars.');
    expect(allText(await u.says('/settings min 250'))).toContain('A minimum swap size is for groups and channels.');
    expect(allText(await u.says('/settings loud'))).toContain('I do not know the setting "loud".');
    expect(await h.tracking.service.settings({ platform: 'console', chatId: 'u-typed', chatKind: 'private' })).toEqual(
      await h.tracking.service.settings({ platform: 'console', chatId: 'nobody', chatKind: 'private' }),
    );
    expect((await h.tracking.service.settings({ platform: 'console', chatId: 'g-typed', chatKind: 'group' })).minUsd).toBeUndefined();

    // A good value typed with a time zone is kept as typed.
    card(await u.says('/settings quiet 9-11 Asia/Tokyo'), { contains: ['09:00–11:00 (Asia/Tokyo)'] });
  });
});
