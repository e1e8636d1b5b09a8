import { describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/index.js';
import { adapterWords } from '../../src/platforms/words.js';
import { useHarness } from '../bot/support/conversation.js';

/**
 * The words an adapter says itself follow the same choice as the core's replies: a /language
 * choice wins over the platform's tag, a group's own choice over the presser's language.
 */
describe('adapterWords with the real core', () => {
  const h = useHarness();

  it("a person who chose Russian with /language gets the adapter's words in Russian, whatever the client says", async () => {
    const who = { platform: 'telegram' as const, userId: 'w-ru', chatId: 'w-ru', chatKind: 'private' as const, locale: 'en' };
    expect((await adapterWords(h.core.localeOf?.bind(h.core), who))('platform.staleButton')).toBe(t('en', 'platform.staleButton'));
    await h.core.handle({ ...who, userName: 'R', text: '/language ru' });
    expect((await adapterWords(h.core.localeOf?.bind(h.core), who))('platform.staleButton')).toBe(t('ru', 'platform.staleButton'));
  });

  it("a group read by everyone is in the group's language, never the presser's", async () => {
    const member = {
      platform: 'discord' as const,
      userId: 'w-es',
      chatId: 'g-1',
      chatKind: 'group' as const,
      locale: 'es-ES',
      chatLocale: 'pt-BR',
    };
    expect((await adapterWords(h.core.localeOf?.bind(h.core), member))('platform.discord.buttonGone')).toBe(
      t('pt-BR', 'platform.discord.buttonGone'),
    );
  });

  it("without the core's answer, the platform's tag", async () => {
    const failing = () => Promise.reject(new Error('redis down'));
    expect(
      (await adapterWords(failing, { platform: 'telegram', userId: 'x', chatId: 'x', chatKind: 'private', locale: 'zh-hans' }))(
        'platform.staleButton',
      ),
    ).toBe(t('zh-CN', 'platform.staleButton'));
    expect(
      (await adapterWords(undefined, { platform: 'telegram', userId: 'x', chatId: 'x', chatKind: 'private', locale: 'pt-br' }))(
        'platform.staleButton',
      ),
    ).toBe(t('pt-BR', 'platform.staleButton'));
  });
});
