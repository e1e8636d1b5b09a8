import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { replyText } from '../../src/contracts/reply.js';
import { DEFAULT_SETTINGS, type ChatSettings } from '../../src/contracts/tracking.js';
import { MOMENT_TITLES } from '../../src/bot/status/moments.js';
import { hourIn } from '../../src/tracking/settings.js';
import { CARD_TITLE, startHarness, type Harness } from './support/harness.js';
import type { RecordingMessenger } from './support/recording-messenger.js';
import { waitFor } from '../support/wait.js';

/**
 * What a chat chose decides what tracking sends (real Redis, the sandbox over HTTP, the real
 * workers): a muted swap and a group's swap below its minimum edit the card only; quiet hours send
 * without sound; quiet mode puts ✅ on the card; cards go to the topic /track was used in; settings
 * are read from Redis by every job (a new engine on the same Redis sees them).
 */

describe('notification settings in delivery', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ tracking: { pacing: () => undefined } });
    await h.startWorkers();
  });
  afterAll(async () => {
    await h?.close();
  });

  const settings = (s: Partial<ChatSettings>): ChatSettings => ({ ...DEFAULT_SETTINGS, moments: [...DEFAULT_SETTINGS.moments], ...s });

  /** Creates a swap followed by `chats`, runs it to completion, and waits until every chat has it all. */
  async function complete(chats: ChatTarget[], before?: (id: string) => Promise<void>, amount?: number): Promise<string> {
    const id = await h.createSwap(amount !== undefined ? { amount } : {});
    for (const c of chats) await h.tracking.service.follow(id, c, { userId: `u-${c.chatId}` });
    h.clock.advance(1_000);
    await h.settle([id]);
    await before?.(id);
    h.sandbox.deposit(id);
    await h.settleUntilCompleted(id, 8);
    expect((await h.tracking.swapState(id))?.status).toBe('completed');
    await h.settle([id]);
    return id;
  }

  const moments = (m: RecordingMessenger, chatId: string) =>
    m.forChat(chatId).filter((r) => r.op === 'send' && r.reply.title !== CARD_TITLE);
  const lastCard = (m: RecordingMessenger, chatId: string) =>
    replyText(
      m
        .forChat(chatId)
        .filter((r) => r.reply.title === CARD_TITLE)
        .at(-1)?.reply ?? { lines: [], target: 'here' },
    );

  it('a muted swap completes with its card edited and no key-moment message; another chat is told', async () => {
    const muted: ChatTarget = { platform: 'telegram', chatId: '7001', chatKind: 'private' };
    const loud: ChatTarget = { platform: 'telegram', chatId: '7002', chatKind: 'private' };
    await complete([muted, loud], async (id) => {
      expect(await h.tracking.service.mute(id, muted, true)).toBe(true);
      expect(await h.tracking.service.isMuted(id, muted)).toBe(true);
    });
    const tg = h.messengers.telegram;
    expect(moments(tg, muted.chatId)).toEqual([]);
    expect(lastCard(tg, muted.chatId)).toContain('status completed');
    expect(tg.forChat(muted.chatId).map((r) => r.op)).toContain('edit');
    expect(moments(tg, loud.chatId).map((r) => r.reply.title)).toEqual([MOMENT_TITLES.deposit_seen, MOMENT_TITLES.completed]);
  });

  it('unmuting brings the messages back (mute is undoable)', async () => {
    const chat: ChatTarget = { platform: 'telegram', chatId: '7003', chatKind: 'private' };
    await complete([chat], async (id) => {
      await h.tracking.service.mute(id, chat, true);
      await h.tracking.service.mute(id, chat, false);
      expect(await h.tracking.service.isMuted(id, chat)).toBe(false);
    });
    expect(moments(h.messengers.telegram, chat.chatId).map((r) => r.reply.title)).toEqual([
      MOMENT_TITLES.deposit_seen,
      MOMENT_TITLES.completed,
    ]);
  });

  it('quiet hours send every message, silently; outside them with sound', async () => {
    const hour = hourIn(h.clock.now(), 'UTC') as number;
    const quiet: ChatTarget = { platform: 'discord', chatId: 'quiet-user', chatKind: 'private' };
    const awake: ChatTarget = { platform: 'discord', chatId: 'awake-user', chatKind: 'private' };
    await h.tracking.service.saveSettings(quiet, settings({ quiet: { from: hour, to: (hour + 2) % 24, tz: 'UTC' } }));
    await h.tracking.service.saveSettings(awake, settings({ quiet: { from: (hour + 3) % 24, to: (hour + 5) % 24, tz: 'UTC' } }));
    await complete([quiet, awake]);
    const dc = h.messengers.discord;
    const q = moments(dc, quiet.chatId);
    expect(q.map((r) => r.reply.title)).toEqual([MOMENT_TITLES.deposit_seen, MOMENT_TITLES.completed]);
    expect(q.filter((r) => !(r.silent === true))).toEqual([]);
    const a = moments(dc, awake.chatId);
    expect(a).toHaveLength(2);
    expect(a.filter((r) => r.silent)).toEqual([]);
  });

  it('a group below its minimum size gets the card and no key-moment message; one above it is told', async () => {
    const small: ChatTarget = { platform: 'telegram', chatId: '-1007001', chatKind: 'group' };
    const big: ChatTarget = { platform: 'telegram', chatId: '-1007002', chatKind: 'group' };
    await h.tracking.service.saveSettings(small, settings({ minUsd: 1000 }));
    await h.tracking.service.saveSettings(big, settings({ minUsd: 50 }));
    await complete([small, big], undefined, 100);
    const tg = h.messengers.telegram;
    expect(moments(tg, small.chatId)).toEqual([]);
    expect(lastCard(tg, small.chatId)).toContain('status completed');
    expect(moments(tg, big.chatId).map((r) => r.reply.title)).toEqual([MOMENT_TITLES.deposit_seen, MOMENT_TITLES.completed]);
  });

  it('only the moments a chat picked send a message', async () => {
    const chat: ChatTarget = { platform: 'console', chatId: 'picky', chatKind: 'private' };
    await h.tracking.service.saveSettings(chat, settings({ moments: ['completed', 'failed'] }));
    await complete([chat]);
    expect(moments(h.messengers.console, chat.chatId).map((r) => r.reply.title)).toEqual([MOMENT_TITLES.completed]);
  });

  it('quiet mode: a completed swap gets ✅ on the group card instead of a message', async () => {
    const chat: ChatTarget = { platform: 'discord', chatId: 'feed-channel', chatKind: 'channel' };
    await h.tracking.service.saveSettings(chat, settings({ reactOnly: true }));
    await complete([chat]);
    const dc = h.messengers.discord;
    expect(moments(dc, chat.chatId).map((r) => r.reply.title)).toEqual([MOMENT_TITLES.deposit_seen]);
    const card = dc.forChat(chat.chatId).find((r) => r.op === 'send' && r.reply.title === CARD_TITLE);
    await waitFor(() => dc.forChat(chat.chatId).some((r) => r.op === 'react'), 'the reaction');
    expect(
      dc
        .forChat(chat.chatId)
        .filter((r) => r.op === 'react')
        .map((r) => [r.messageId, r.emoji]),
    ).toEqual([[card?.messageId, '✅']]);
  });

  it('quiet mode in a chat that refuses reactions: the completion comes as a message, never lost', async () => {
    const chat: ChatTarget = { platform: 'telegram', chatId: '-1007005', chatKind: 'group' };
    await h.tracking.service.saveSettings(chat, settings({ reactOnly: true }));
    h.messengers.telegram.fail({ failure: 'rejected', chatId: chat.chatId, op: 'react' });
    await complete([chat]);
    await waitFor(
      () => moments(h.messengers.telegram, chat.chatId).some((r) => r.reply.title === MOMENT_TITLES.completed),
      'the completion message',
    );
    expect(h.messengers.telegram.forChat(chat.chatId).filter((r) => r.op === 'react')).toEqual([]);
  });

  it('cards and messages go to the forum topic /track was used in, or the topic the admins chose', async () => {
    const inTopic: ChatTarget = { platform: 'telegram', chatId: '-1007003', chatKind: 'group', threadId: '42' };
    const chosen: ChatTarget = { platform: 'telegram', chatId: '-1007004', chatKind: 'group', threadId: '5' };
    await h.tracking.service.saveSettings(chosen, settings({ topic: '77' }));
    await complete([inTopic, chosen]);
    const sends = (chatId: string) => h.messengers.telegram.forChat(chatId).filter((r) => r.op === 'send');
    expect(sends(inTopic.chatId).length).toBeGreaterThanOrEqual(3);
    expect(sends(inTopic.chatId).filter((r) => !(r.threadId === '42'))).toEqual([]);
    expect(sends(chosen.chatId).filter((r) => !(r.threadId === '77'))).toEqual([]);
  });

  it('keeps settings in Redis beside the subscriptions (read back as saved; unreadable means defaults)', async () => {
    const chat: ChatTarget = { platform: 'telegram', chatId: '-1007005', chatKind: 'group' };
    const s = settings({
      moments: ['completed'],
      minorEdits: false,
      quiet: { from: 22, to: 7, tz: 'Europe/Berlin' },
      minUsd: 250,
      reactOnly: true,
      hideAmounts: true,
      topic: '9',
    });
    await h.tracking.service.saveSettings(chat, s);
    expect(await h.tracking.service.settings(chat)).toEqual(s);
    const key = h.keys.party('telegram:-1007005');
    expect(key).toContain('{telegram:-1007005}');
    await h.redis.hset(key, 'o', 'not json');
    expect(await h.tracking.service.settings(chat)).toEqual(settings({}));
  });
});
