import { Locale } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { Json } from '../../fakes/bodies.js';
import type { Where } from './fake-discord.js';
import type { InteractionState, StoredMessage } from './fake-world.js';
import { answerOf, buttonId, buttonLabels, embedText, titleOf, unescape, useLiveDiscord } from './harness.js';
import { waitFor } from '../../support/wait.js';

/**
 * Issue 17 through Discord (the real discord.js client against the fake Discord, the real core,
 * the sandbox, real Redis): a user whose Discord client is in Simplified Chinese (interaction
 * `locale: 'zh-CN'`) gets Chinese in the bot DM, from autocomplete to the deposit card; a server
 * channel keeps the server's language; the registered commands carry description_localizations
 * under Discord's own locale names.
 */
const h = useLiveDiscord('dc-lang');
const ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';

/** The message an interaction left: its reply, or the message it updated. */
async function after(it: InteractionState, message: StoredMessage, versionsBefore: number): Promise<StoredMessage> {
  await waitFor(() => it.callbacks[0], `an answer to interaction ${it.id}`);
  return waitFor(() => {
    if (message.history.length > versionsBefore) return message;
    const other = it.originalId && it.originalId !== message.id ? h.fake.message(it.originalId) : undefined;
    return other && !other.loading ? other : undefined;
  }, 'the wizard to move on');
}

describe('a Discord user whose client is in Chinese (locale zh-CN)', () => {
  const user = () =>
    h.fake.world.users.get('2100000000000000042') ??
    h.fake.world.addUser({ id: '2100000000000000042', username: 'li', globalName: 'Li', locale: 'zh-CN' });
  const dm = (): Where => ({ user: user() });

  it('autocomplete marks native tokens and exchanges in Chinese', async () => {
    const tokens = await h.fake.autocomplete(dm(), 'quote', { amount: 1, from: 'ARBITRUM_MAINNET', token: 'eth' }, 'token');
    expect(tokens.map((c) => c.name)).toContain('ETH（原生）');
    expect(tokens.map((c) => c.name).join(' ')).not.toContain('(native)');
  });

  it("quotes and walks the wizard to the deposit card in the bot DM, all in Chinese, with the service's address and amount", async () => {
    const dmChannel = h.fake.world.dmChannel(user().id).id;
    const card = await answerOf(
      h.fake,
      h.fake.slashCommand(dm(), 'quote', { amount: 100, token: 'USDC', from: 'ARBITRUM_MAINNET', to: 'BASE_MAINNET' }),
    );
    const text = unescape(embedText(card));
    expect(unescape(titleOf(card))).toBe('报价：USDC Arbitrum One → USDC Base');
    expect(text).toContain('您发送');
    expect(text).toContain('Arbitrum One 上的 100 USDC');
    expect(buttonLabels(card)).toEqual(expect.arrayContaining(['兑换', '刷新']));
    expect(text).not.toMatch(/You send|You receive/);

    // "兑换" (Swap this) asks for the address in a modal whose words are Chinese too.
    const swapThis = h.fake.pressButton(dm(), card, buttonId(card, '兑换'));
    await waitFor(() => swapThis.modal, 'the address modal');
    expect(JSON.stringify(swapThis.modal)).toMatch(/Base/);
    expect(JSON.stringify(swapThis.modal)).not.toMatch(/address on|Your address/i);
    let step = await after(h.fake.submitModal(dm(), swapThis, ADDRESS), card, card.history.length);
    for (let i = 0; i < 6 && !buttonLabels(step).includes('确认'); i++) {
      const next = ['跳过（不设退款地址）', '不用 Refuel'].find((l) => buttonLabels(step).includes(l));
      if (!next) throw new Error(`wizard stuck at: ${embedText(step)} [${buttonLabels(step).join(', ')}]`);
      step = await after(h.fake.pressButton(dm(), step, buttonId(step, next)), step, step.history.length);
    }
    expect(unescape(titleOf(step))).toBe('确认您的兑换');
    expect(unescape(embedText(step))).toContain(ADDRESS);

    h.fake.pressButton(dm(), step, buttonId(step, '确认'));
    const deposit = await waitFor(
      () => h.fake.messagesIn(dmChannel).find((m) => /^兑换 [0-9a-f]{8} 的充值$/.test(unescape(titleOf(m)))),
      'the deposit card',
    );
    const body = unescape(embedText(deposit));
    expect(body).toContain('请准确发送');
    expect(body).toContain('请仅通过 Arbitrum One 网络发送：通过其他任何网络发送的资金都将丢失');
    const swapId = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/.exec(body)?.[1] ?? '';
    const service = await h.live.api.getSwap(swapId);
    const to = service.deposit_actions?.[0]?.to_address ?? '';
    expect(to).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(body).toContain(to);
    expect(body).toContain(`${service.swap.requested_amount} USDC`);
    expect(buttonLabels(deposit)).toEqual(expect.arrayContaining(['复制地址', '复制金额']));
    expect(body).not.toMatch(/Send exactly|Send only/);
  });

  it("in a server channel, a card everyone reads is in the server's language, not the presser's", async () => {
    h.fake.world.addMember(h.guild, user().id);
    const card = await answerOf(
      h.fake,
      h.fake.slashCommand({ user: user(), guild: h.guild }, 'quote', {
        amount: 100,
        token: 'USDC',
        from: 'ARBITRUM_MAINNET',
        to: 'BASE_MAINNET',
      }),
    );
    expect(card.ephemeral).toBe(false);
    expect(unescape(titleOf(card))).toBe('Quote: USDC Arbitrum One → USDC Base');
  });
});

describe('the registered application commands', () => {
  it("carry description_localizations under Discord's locale names: ru, es-ES and es-419, zh-CN, pt-BR", () => {
    const commands = [...(h.fake.world.commands.get('global')?.values() ?? [])];
    expect(commands.length).toBeGreaterThan(5);
    const discordLocales = new Set<string>(Object.values(Locale));
    const quote = commands.find((c) => c.name === 'quote') as Json;
    const localized = quote.description_localizations as Record<string, string>;
    expect(Object.keys(localized).sort()).toEqual(['es-419', 'es-ES', 'pt-BR', 'ru', 'zh-CN']);
    expect(localized['zh-CN']).toMatch(/^兑换报价/);
    expect(localized.ru).toMatch(/^Котировка обмена/);
    expect(localized['es-ES']).toBe(localized['es-419']);
    expect(localized['pt-BR']).toMatch(/^Cotar um swap/);
    for (const c of commands) {
      // Every key is one Discord documents (it refuses the whole registration otherwise), every text fits.
      for (const [key, text] of Object.entries((c.description_localizations ?? {}) as Record<string, string>)) {
        expect(discordLocales.has(key), `${String(c.name)}: ${key}`).toBe(true);
        expect(text.length, `${String(c.name)} ${key}`).toBeLessThanOrEqual(100);
      }
      for (const o of (c.options ?? []) as Json[])
        for (const key of Object.keys((o.description_localizations ?? {}) as Record<string, string>))
          expect(discordLocales.has(key), `${String(c.name)} ${String(o.name)}: ${key}`).toBe(true);
    }
    // Options are described in Chinese too (the names stay English: they are what /help shows).
    const from = (quote.options as Json[]).find((o) => o.name === 'from');
    expect(Object.keys((from?.description_localizations ?? {}) as object)).toContain('zh-CN');
  });
});
