import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { line } from '../../../src/contracts/reply.js';
import { serveHttp, type RequestHandler, type WebServer } from '../../../src/app/http-server.js';
import { telegramAdapter, type TelegramAdapter } from '../../../src/platforms/telegram/adapter.js';
import { telegramSettings } from '../../../src/app/platform-settings.js';
import { testRedis, uniquePrefix } from '../../support/redis.js';
import { FakeBotApi } from './fake-bot-api.js';
import { memoryLogger } from '../../support/log.js';
import { ScriptedCore, newUser } from './harness.js';
import { waitFor } from '../../support/wait.js';

/** Webhook mode as the `web` process runs it: from Config alone, mounted on the web server. */
const prefix = uniquePrefix('tg-webhook');
const redis = testRedis(prefix);
const SECRET = 'webhook_secret-0123456789abcdefghij';

const core = new ScriptedCore((i) => [{ lines: [line(`got ${i.text ?? ''}`)], target: 'here' }]);
let fake: FakeBotApi;
let running: TelegramAdapter;
let server: WebServer;
let hookUrl: string;

beforeAll(async () => {
  fake = await FakeBotApi.start();
  const config = loadConfig({
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.apiRoot,
    TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/telegram/hook',
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_WEBHOOK_MAX_CONNECTIONS: '25',
    PORT: '0',
  });
  running = telegramAdapter(telegramSettings(config), { core, redis, logger: memoryLogger().logger, keyPrefix: prefix });
  const routes = new Map<string, RequestHandler>(running.webhook ? [[running.webhook.path, running.webhook.handler]] : []);
  server = await serveHttp(routes, { port: 0, host: '127.0.0.1', health: async () => true });
  await running.start();
  hookUrl = `http://127.0.0.1:${server.port}/telegram/hook`;
});
afterAll(async () => {
  await server?.close();
  await running?.stop();
  await fake?.close();
});

function post(body: unknown, secret?: string, url = hookUrl): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret !== undefined ? { 'x-telegram-bot-api-secret-token': secret } : {}) },
    body: JSON.stringify(body),
  });
}

function update(id: number, userId: number, text: string) {
  const from = { id: userId, is_bot: false, first_name: 'Wendy' };
  fake.openDm(from);
  return { update_id: id, message: { message_id: 77, date: 1, chat: { id: userId, type: 'private', first_name: 'Wendy' }, from, text } };
}

describe('Telegram webhook mode', () => {
  it('sets the webhook with its secret and registers the command menu', () => {
    expect(running.mode).toBe('webhook');
    // TELEGRAM_WEBHOOK_MAX_CONNECTIONS=25 reaches Telegram as max_connections.
    expect(fake.webhook).toEqual({ url: 'https://bot.example.com/telegram/hook', secret: SECRET, maxConnections: 25 });
    expect(fake.callsTo('setWebhook')[0]!.payload.max_connections).toBe(25);
    expect(fake.callsTo('setWebhook')[0]!.payload.allowed_updates).toEqual([
      'message',
      'callback_query',
      'channel_post',
      'inline_query',
      'chosen_inline_result',
      'guest_message',
    ]);
  });

  it('registers the command menu for both scopes in English (default) and in ru, es, zh and pt', () => {
    type Menu = { scope: { type: string }; language_code?: string; commands: Array<{ command: string; description: string }> };
    const menus = fake.callsTo('setMyCommands').map((c) => c.payload as unknown as Menu);
    const menu = (scope: string, lang?: string): Menu['commands'] => {
      const found = menus.filter((m) => m.scope.type === scope && m.language_code === lang);
      expect(found, `${scope} ${lang ?? 'default'}`).toHaveLength(1);
      return found[0]!.commands;
    };
    // Exactly one menu per scope and language: the default (no language_code) plus one per translation.
    expect(menus.map((m) => `${m.scope.type}/${m.language_code ?? 'default'}`).sort()).toEqual(
      ['default', 'ru', 'es', 'zh', 'pt'].flatMap((l) => [`all_private_chats/${l}`, `all_group_chats/${l}`]).sort(),
    );
    const quote = {
      en: 'Quote a swap: fees, amount received, time',
      ru: 'Котировка обмена: комиссии, сумма к получению, время',
      es: 'Cotizar un intercambio: comisiones, monto recibido, tiempo',
      zh: '兑换报价：手续费、到账金额、时间',
      pt: 'Cotar um swap: taxas, valor recebido, tempo',
    };
    const track = {
      en: 'Follow a swap: by its id, your deposit transaction or your wallet address',
      ru: 'Следить за обменом: по его ID, транзакции депозита или адресу кошелька',
      es: 'Seguir un intercambio: por su ID, tu transacción de depósito o tu dirección de billetera',
      zh: '跟踪兑换：按兑换 ID、充值交易或钱包地址',
      pt: 'Acompanhar um swap: pelo ID, pela sua transação de depósito ou pelo endereço da sua carteira',
    };
    const privateNames = menu('all_private_chats').map((c) => c.command);
    const groupNames = menu('all_group_chats').map((c) => c.command);
    expect(privateNames).toEqual(expect.arrayContaining(['quote', 'swap', 'history', 'track', 'language']));
    expect(groupNames).toContain('track');
    expect(groupNames).not.toContain('history');
    for (const lang of ['en', 'ru', 'es', 'zh', 'pt'] as const) {
      const code = lang === 'en' ? undefined : lang;
      const priv = menu('all_private_chats', code);
      const group = menu('all_group_chats', code);
      // The same commands in every language (names are never translated), only the texts differ.
      expect(
        priv.map((c) => c.command),
        lang,
      ).toEqual(privateNames);
      expect(
        group.map((c) => c.command),
        lang,
      ).toEqual(groupNames);
      expect(priv.find((c) => c.command === 'quote')?.description, lang).toBe(quote[lang]);
      expect(group.find((c) => c.command === 'track')?.description, lang).toBe(track[lang]);
      for (const c of [...priv, ...group]) expect(c.description.length, `${lang} /${c.command}`).toBeGreaterThan(0);
    }
  });

  it('refuses a call without the right secret (401) and never handles it', async () => {
    const u = newUser();
    const before = core.seen.length;
    expect((await post(update(9001, u.id, '/help'), 'wrong')).status).toBe(401);
    expect((await post(update(9002, u.id, '/help'))).status).toBe(401);
    expect(core.seen.length).toBe(before);
    expect(fake.botMessages(u.id)).toHaveLength(0);
  });

  it('handles a call with the right secret, once even when Telegram delivers it twice', async () => {
    const u = newUser();
    const body = update(9100, u.id, '/quote 1 eth');
    const first = await post(body, SECRET);
    const again = await post(body, SECRET);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(core.seen.filter((s) => s.userId === String(u.id)).map((s) => s.text)).toEqual(['/quote 1 eth']);
    expect(fake.botMessages(u.id).map((m) => m.text)).toEqual(['got /quote 1 eth']);
  });

  it('answers 413 to an update streamed past the size cap, and never handles it', async () => {
    const before = core.seen.length;
    const big = new TextEncoder().encode(JSON.stringify({ update_id: 9200, pad: 'x'.repeat(1_100_000) }));
    // A stream has no declared length: the cap must hold while reading.
    const body = new ReadableStream({ start: (c) => (c.enqueue(big), c.close()) });
    const res = await fetch(hookUrl, {
      method: 'POST',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(core.seen.length).toBe(before);
  });

  it('answers 400 to a body that is not an update, 404 elsewhere', async () => {
    expect((await post({ hello: 1 }, SECRET)).status).toBe(400);
    expect((await post({ update_id: 1 }, SECRET, `http://127.0.0.1:${server.port}/other`)).status).toBe(404);
  });
});

describe('long polling mode from Config', () => {
  it('starts polling, registers commands per scope, and stops cleanly', async () => {
    const f = await FakeBotApi.start();
    const config = loadConfig({ TELEGRAM_BOT_TOKEN: f.token, TELEGRAM_API_ROOT: f.apiRoot });
    const r = telegramAdapter(telegramSettings(config), { core, redis, logger: memoryLogger().logger, keyPrefix: prefix });
    try {
      expect(r.mode).toBe('polling');
      expect(r.webhook).toBeUndefined();
      await r.start();
      const [privateCmds, groupCmds] = f.commands.map((c) => (c.commands as Array<{ command: string }>).map((x) => x.command));
      expect(privateCmds).toContain('history');
      expect(groupCmds).toContain('track');
      expect(groupCmds).not.toContain('history');
      const u = newUser();
      f.sendText(f.privateChat(u), u, '/help');
      await waitFor(() => f.botMessages(u.id)[0], 'a polled reply');
    } finally {
      await r.stop();
      await f.close();
    }
  });
});
