import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisHistoryStore } from '../../src/bot/history/store.js';
import { testRedis } from '../support/redis.js';
import { trackingRenderer } from '../../src/bot/renderer.js';
import { statusActions } from '../../src/bot/kernel/status-actions.js';
import type { BotCore } from '../../src/bot/core.js';
import type { ChatKind, Incoming } from '../../src/contracts/incoming.js';
import { replyButtons, replyText, type Reply } from '../../src/contracts/reply.js';
import { findButton } from '../bot/support/conversation.js';
import { coreOver, startHarness, type Harness } from '../tracking/support/harness.js';

/**
 * Pushed updates in each follower's language, end to end: the core (follow, /language) and the
 * real tracking workers on real Redis, the sandbox on a ManualClock, and the real cards and key
 * moments delivered to a recording console messenger. Expectations are the translated words
 * themselves, so a missing translation (English fallback) fails.
 */
let h: Harness;
let core: BotCore;

beforeAll(async () => {
  h = await startHarness({ tracking: { pacing: () => undefined } });
  await h.startWorkers({ render: trackingRenderer });
  core = coreOver(h);
});
afterAll(async () => {
  await h?.close();
});

interface Who {
  userId: string;
  chatId?: string;
  chatKind?: ChatKind;
  /** The platform's language tag for the user (Telegram language_code). */
  locale?: string;
  /** The chat's own language (Discord guild_locale). */
  chatLocale?: string;
}

let pressed = 0;
const incoming = (who: Who, extra: Partial<Incoming>): Incoming => ({
  platform: 'console',
  userId: who.userId,
  userName: 'Tester',
  chatId: who.chatId ?? who.userId,
  chatKind: who.chatKind ?? 'private',
  isChatAdmin: () => Promise.resolve(true),
  ...(who.locale ? { locale: who.locale } : {}),
  ...(who.chatLocale ? { chatLocale: who.chatLocale } : {}),
  ...extra,
});
const says = (who: Who, text: string) => core.handle(incoming(who, { text }));
const sendsAction = (who: Who, action: string) =>
  core.handle(
    incoming(who, { action, messageRef: { platform: 'console', chatId: who.chatId ?? who.userId, messageId: String(++pressed) } }),
  );
async function presses(who: Who, from: Reply[], label: string): Promise<Reply[]> {
  const b = findButton(from, label);
  if (b.kind !== 'action') throw new Error(`${label} is a ${b.kind} button`);
  return sendsAction(who, b.action);
}

/** What tracking delivered to a chat: its status cards (sent or edited) and its other messages. */
function delivered(chatId: string, id: string) {
  const log = h.messengers.console.forChat(chatId);
  const isCard = (r: Reply) => replyButtons(r).some((b) => b.kind === 'action' && b.action === statusActions.refresh(id));
  return {
    cards: log.filter((r) => isCard(r.reply)).map((r) => r.reply),
    messages: log.filter((r) => r.op === 'send' && !isCard(r.reply)).map((r) => r.reply),
  };
}

async function poll(id: string): Promise<void> {
  h.clock.advance(1_000);
  await h.settle([id]);
}

/** Deposit, then sandbox time until the swap completes and every chat has it all. */
async function complete(id: string): Promise<void> {
  h.sandbox.deposit(id);
  await h.settleUntilCompleted(id, 10);
  expect((await h.tracking.swapState(id))?.status).toBe('completed');
}

describe("pushed updates in the follower's language", () => {
  it('a Russian and an English follower of one swap each get the card and the key moments in their own language', async () => {
    const id = await h.createSwap();
    const short = id.slice(0, 8);
    const ru: Who = { userId: 'lang-ru', locale: 'ru' };
    const en: Who = { userId: 'lang-en', locale: 'en-US' };
    // The Russian follower created it (the bot's record of creators): their cards are unmasked, with the receipt.
    await new RedisHistoryStore(testRedis(h.prefix), h.prefix).add('console', ru.userId, { swapId: id, createdAt: 0, summary: '100 USDC' });
    expect(replyText((await says(ru, `/track ${id}`))[0]!)).not.toBe('');
    await says(en, `/track ${id}`);
    await poll(id);

    const ruCard = delivered(ru.userId, id).cards.at(-1)!;
    expect(ruCard.title).toBe(`Обмен ${short}: Ждём ваш депозит`);
    expect(replyText(ruCard)).toContain('Отправьте точную сумму на адрес депозита');
    expect(replyButtons(ruCard).map((b) => b.label)).toEqual(expect.arrayContaining(['Обновить', 'Не уведомлять', 'Не отслеживать']));
    const enCard = delivered(en.userId, id).cards.at(-1)!;
    expect(enCard.title).toBe(`Swap ${short}: Waiting for your deposit`);
    expect(replyButtons(enCard).map((b) => b.label)).toEqual(expect.arrayContaining(['Refresh', 'Mute', 'Stop']));

    await complete(id);
    expect(delivered(ru.userId, id).messages.map((r) => r.title)).toEqual(['Депозит обнаружен', 'Обмен завершён']);
    expect(delivered(en.userId, id).messages.map((r) => r.title)).toEqual(['Deposit seen', 'Swap completed']);
    const ruDone = delivered(ru.userId, id);
    // The receipt (Чек) sits between where the funds went and the payout transaction.
    expect(replyText(ruDone.messages[1]!)).toMatch(
      /Получено [\d.]+ USDC в сети Base\nНа адрес 0x\w+\nЧек\nОтправлено: 100 USDC[^]*\nТранзакция выплаты: 0x/,
    );
    expect(ruDone.cards.at(-1)!.title).toBe(`Обмен ${short}: Завершён`);
    expect(delivered(en.userId, id).cards.at(-1)!.title).toBe(`Swap ${short}: Completed`);
    // The English follower only knew the id: no receipt, the destination masked.
    expect(replyText(delivered(en.userId, id).messages[1]!)).not.toMatch(/Receipt|0x[0-9a-f]{40}/);
  });

  it('a Spanish group gets Spanish even when an English user pressed the follow button', async () => {
    const id = await h.createSwap();
    const short = id.slice(0, 8);
    // An admin chose Spanish for the group with /language.
    const admin: Who = { userId: 'grp-admin', chatId: 'grp-es', chatKind: 'group', locale: 'es' };
    await presses(admin, await says(admin, '/language'), 'Español');
    // Someone whose own language is English presses Track (a status card's follow button) there.
    const english: Who = { userId: 'grp-english', chatId: 'grp-es', chatKind: 'group', locale: 'en' };
    await sendsAction(english, statusActions.track(id));
    // A Discord server whose own language is Spanish, nobody chose one: the same.
    const guild: Who = { userId: 'guild-english', chatId: 'guild-es', chatKind: 'group', locale: 'en-GB', chatLocale: 'es-ES' };
    await says(guild, `/track ${id}`);
    await poll(id);

    for (const chat of ['grp-es', 'guild-es']) {
      const card = delivered(chat, id).cards.at(-1)!;
      expect(card.title, chat).toBe(`Intercambio ${short}: Esperando tu depósito`);
      expect(
        replyButtons(card).map((b) => b.label),
        chat,
      ).toEqual(expect.arrayContaining(['Actualizar', 'Silenciar', 'Dejar de seguir']));
    }
    await complete(id);
    for (const chat of ['grp-es', 'guild-es']) {
      expect(
        delivered(chat, id).messages.map((r) => r.title),
        chat,
      ).toEqual(['Depósito detectado', 'Intercambio completado']);
    }
  });

  it('after /language, the next update comes in the new language', async () => {
    const id = await h.createSwap();
    const short = id.slice(0, 8);
    const user: Who = { userId: 'lang-switch', locale: 'en' };
    await says(user, `/track ${id}`);
    await poll(id);
    expect(delivered(user.userId, id).cards.at(-1)!.title).toBe(`Swap ${short}: Waiting for your deposit`);

    await presses(user, await says(user, '/language'), '简体中文');
    await complete(id);
    const after = delivered(user.userId, id);
    expect(after.messages.map((r) => r.title)).toEqual(['已检测到充值', '兑换已完成']);
    expect(after.cards.at(-1)!.title).toBe(`兑换 ${short}：已完成`);
    // The same card, edited in place: a new language is one more edit, not a second card.
    expect(
      h.messengers.console
        .forChat(user.userId)
        .filter((r) => r.op === 'send' && replyButtons(r.reply).some((b) => b.kind === 'action' && b.action === statusActions.refresh(id))),
    ).toHaveLength(1);
  });
});
