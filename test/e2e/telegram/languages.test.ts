import { describe, expect, it } from 'vitest';
import type { User } from 'grammy/types';
import { registerTelegramCommands } from '../../../src/platforms/telegram/commands.js';
import type { StoredMessage } from './fake-rules.js';
import { newUser } from './harness.js';
import { driveToCompletion } from '../live-stack.js';
import { TgUser, useWorld } from './world.js';
import { waitFor } from '../../support/wait.js';
import { quoteRequest } from '../../support/swaps.js';

/**
 * Issue 17 through Telegram (real grammY against the fake Bot API over HTTP, the real core, the
 * sandbox on a ManualClock, real Redis, the tracking engine pushing through TelegramMessenger):
 * the user's `language_code` picks the language of every reply, button and pushed update, and
 * the command menus are registered per two-letter language code.
 */
const EVM = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const world = useWorld('tg-lang');

/** A person whose Telegram app is in this language (Update.message.from.language_code). */
const speaker = (first_name: string, language_code: string): User => ({ ...newUser(first_name), language_code });

const buttonTexts = (m: StoredMessage): string[] =>
  ((m.markup?.inline_keyboard ?? []) as Array<Array<{ text: string }>>).flat().map((b) => b.text);

describe('a Spanish-speaking Telegram user (language_code: es)', () => {
  it("quotes, runs the wizard to the deposit card and gets pushed updates, all in Spanish, with the service's amounts and addresses", async () => {
    const elena = speaker('Elena', 'es');
    const u = new TgUser(world.fake, elena, world.fake.privateChat(elena));
    const { quote: sandboxQuote } = await world.api.getQuote(quoteRequest());

    u.says('/quote 100 USDC arbitrum base');
    const quote = await u.sees('Cotización: USDC Arbitrum One → USDC Base');
    expect(quote.text).toContain('Envías');
    expect(quote.text).toContain('Recibes');
    expect(quote.text).toContain(`${sandboxQuote.receive_amount} USDC`);
    expect(buttonTexts(quote)).toEqual(expect.arrayContaining(['Intercambiar', 'Actualizar']));
    expect(quote.text).not.toMatch(/You send|You receive|Quote:/);

    await u.presses('Intercambiar');
    await u.sees('Envía la dirección en Base que debe recibir los USDC.');
    await u.answers(EVM);
    await u.sees('para reembolsos');
    await u.presses('Omitir (sin dirección de reembolso)');
    let confirm = await u.sees(/Confirma tu intercambio|Refuel/);
    if (!/Confirma tu intercambio/.test(confirm.text ?? '')) {
      await u.presses('Sin refuel');
      confirm = await u.sees('Confirma tu intercambio');
    }
    expect(confirm.text).toContain(EVM);
    await u.presses('Confirmar');

    const deposit = await waitFor(() => u.messages().find((m) => m.photoSize), 'the deposit card');
    const caption = deposit.caption ?? '';
    expect(caption).toContain('Envía exactamente 100 USDC');
    expect(caption).toContain('Envía solo por la red Arbitrum One: los fondos enviados por cualquier otra red se pierden');
    const swapId = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/.exec(caption)?.[1] ?? '';
    expect(swapId).not.toBe('');
    // The money instructions are the service's, untranslated: the address and amount it gave.
    const service = await world.api.getSwap(swapId);
    const to = service.deposit_actions?.[0]?.to_address ?? '';
    expect(to).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(caption).toContain(to);
    const copies = (deposit.markup!.inline_keyboard as Array<Array<Record<string, unknown>>>).flat().filter((b) => 'copy_text' in b);
    expect(copies.find((b) => b.text === 'Copiar dirección')?.copy_text).toEqual({ text: to });
    expect(copies.find((b) => b.text === 'Copiar monto')?.copy_text).toEqual({ text: String(service.swap.requested_amount) });
    expect(caption).not.toMatch(/Send exactly|Send only|Copy address/);

    // Tracking pushes the key moments in the language the chat was answered in.
    world.sandbox.deposit(swapId);
    await u.sees('Depósito detectado');
    await driveToCompletion(world, swapId);
    const done = await u.sees('Intercambio completado');
    const received = (await world.api.getSwap(swapId)).swap.transactions.find((x) => x.type === 'output');
    expect(received?.amount).toBeDefined();
    expect(done.text).toContain(`${received?.amount} USDC`);
    // The status card, edited in place by tracking, speaks Spanish too.
    await u.sees('Los fondos se entregaron en la dirección de destino.');
    const pushedEnglish = u.messages().filter((m) => /^(Deposit seen|Swap completed)/.test(m.text ?? ''));
    expect(pushedEnglish).toEqual([]);
  });
});

describe('Russian and Chinese users', () => {
  it.each([
    ['ru', 'Что я умею', /Пример:/],
    ['zh-CN', '我能做什么', /示例：/],
    ['zh', '我能做什么', /示例：/],
  ])('language_code %s: /start and /help answer in that language', async (code, title, example) => {
    const who = speaker('Ivan', code);
    const u = new TgUser(world.fake, who, world.fake.privateChat(who));
    u.says('/help');
    const help = await u.sees(title);
    expect(help.text).toMatch(example);
    expect(help.text).not.toContain('What I can do');
    const before = u.messages().length;
    u.says('/start');
    const start = await waitFor(() => u.messages().length > before && u.messages().at(-1), 'the answer to /start');
    expect(start.text).toContain(title);
    expect(start.text).not.toMatch(/What I can do|Deposit details are only ever sent/);
  });
});

describe('the command menus', () => {
  it('are registered per two-letter language_code (ISO 639-1: zh and pt, never zh-CN or pt-BR), each in its language', async () => {
    await registerTelegramCommands(world.telegram.bot.api);
    const menus = world.fake
      .callsTo('setMyCommands')
      .map(
        (c) => c.payload as { scope: { type: string }; language_code?: string; commands: Array<{ command: string; description: string }> },
      );
    const codes = [...new Set(menus.map((m) => m.language_code).filter((c) => c !== undefined))].sort();
    expect(codes).toEqual(['es', 'pt', 'ru', 'zh']);
    for (const c of codes) expect(c).toMatch(/^[a-z]{2}$/);
    const quote = (code: string | undefined) =>
      menus.find((m) => m.scope.type === 'all_private_chats' && m.language_code === code)?.commands.find((c) => c.command === 'quote')
        ?.description;
    expect(quote(undefined)).toMatch(/^Quote a swap/);
    expect(quote('es')).toMatch(/^Cotizar un intercambio/);
    expect(quote('ru')).toMatch(/^Котировка обмена/);
    expect(quote('zh')).toMatch(/^兑换报价/);
    expect(quote('pt')).toMatch(/^Cotar um swap/);
    expect(world.fake.callsTo('setMyCommands').filter((c) => !c.ok)).toEqual([]);
  });
});
