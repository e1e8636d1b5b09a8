import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:net';
import { statusActions } from '../src/bot/kernel/status-actions.js';

/**
 * What part 13 POSTs to the web process, as the platforms send it: Telegram updates (a /help, or a
 * press of the help card's "Where is my swap?" button) and Discord interactions (the /help slash
 * command, or the same button pressed), each from a private chat of its own so every reply can be
 * told apart.
 */

export const APP_ID = '1300000000000000001';
/** The help card's one button: "Where is my swap?" (a Redis write and a prompt, no API call). */
const PRESS_ACTION = statusActions.where();

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

export interface DiscordKey {
  publicHex: string;
  sign(timestamp: string, body: string): string;
}

export function ed25519(): DiscordKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicHex = Buffer.from(String(publicKey.export({ format: 'jwk' }).x), 'base64url').toString('hex');
  return { publicHex, sign: (t, body) => sign(null, Buffer.from(t + body), privateKey).toString('hex') };
}

/** A Discord interaction in a DM of its own: a /help slash command (`press` false) or the help card's button pressed. */
export function discordInteraction(k: number, press = false): Record<string, unknown> {
  const user = {
    id: String(1_400_000_000_000_000_000n + BigInt(k)),
    username: `bench${k}`,
    discriminator: '0',
    global_name: null,
    avatar: null,
  };
  const channel = String(1_500_000_000_000_000_000n + BigInt(k));
  const base = {
    id: String(1_600_000_000_000_000_000n + BigInt(k)),
    application_id: APP_ID,
    token: `bench-interaction-token-${k}`,
    version: 1,
    locale: 'en-US',
    entitlements: [],
    app_permissions: String((1n << 53n) - 1n),
    channel: { id: channel, type: 1, recipients: [user], flags: 0, last_message_id: null },
    channel_id: channel,
    user,
    context: 1,
    authorizing_integration_owners: { '0': user.id },
  };
  if (!press) return { ...base, type: 2, data: { id: '1700000000000000001', name: 'help', type: 1, options: [] } };
  const button = { type: 2, style: 2, label: 'Where is my swap?', custom_id: PRESS_ACTION };
  const message = {
    id: String(1_800_000_000_000_000_000n + BigInt(k)),
    type: 20,
    channel_id: channel,
    author: { id: APP_ID, username: 'bench-swapbot', discriminator: '0', global_name: null, avatar: null, bot: true },
    content: '',
    embeds: [],
    components: [{ type: 1, components: [button] }],
    attachments: [],
    mentions: [],
    mention_roles: [],
    mention_everyone: false,
    pinned: false,
    tts: false,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    flags: 0,
    application_id: APP_ID,
  };
  return { ...base, type: 3, message, data: { custom_id: PRESS_ACTION, component_type: 2 } };
}

/** A Telegram update from a private chat of its own: /help, or the help card's button pressed. */
export function telegramUpdate(updateId: number, chat: number, press = false): Record<string, unknown> {
  const from = { id: chat, is_bot: false, first_name: 'Bench', language_code: 'en' };
  const date = Math.floor(Date.now() / 1000);
  const privateChat = { id: chat, type: 'private', first_name: 'Bench' };
  if (!press)
    return {
      update_id: updateId,
      message: { message_id: 1, date, chat: privateChat, from, text: '/help', entities: [{ type: 'bot_command', offset: 0, length: 5 }] },
    };
  return {
    update_id: updateId,
    callback_query: {
      id: `bench-cb-${updateId}`,
      from,
      chat_instance: `ci-${chat}`,
      data: PRESS_ACTION,
      message: {
        message_id: 2,
        date,
        chat: privateChat,
        from: { id: 123456789, is_bot: true, first_name: 'Bench', username: 'bench_swapbot' },
        text: 'Help',
        reply_markup: { inline_keyboard: [[{ text: 'Where is my swap?', callback_data: PRESS_ACTION }]] },
      },
    },
  };
}
