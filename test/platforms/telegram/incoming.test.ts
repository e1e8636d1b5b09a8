import { describe, expect, it } from 'vitest';
import type { Chat, Message } from 'grammy/types';
import { GrammyError, HttpError } from 'grammy';
import { actorOf, chatKind, commandAddressing, routeText } from '../../../src/platforms/telegram/incoming.js';
import { classifyFailure, describeError } from '../../../src/platforms/telegram/errors.js';
import { telegramCommands } from '../../../src/platforms/telegram/commands.js';
import { COMMANDS } from '../../../src/bot/command-list.js';

const bot = { id: 42, username: 'Swap_Bot' };
const group = { id: -100, type: 'supergroup', title: 'G' } as Chat;
const priv = { id: 7, type: 'private', first_name: 'A' } as Chat;
const user = { id: 7, is_bot: false, first_name: 'Ann', last_name: 'Lee' };

describe('which messages reach the core', () => {
  it('strips @thisbot (any case), refuses @otherbot', () => {
    expect(commandAddressing('/quote@swap_bot 1 eth', 'Swap_Bot')).toEqual({ kind: 'ours', text: '/quote 1 eth' });
    expect(commandAddressing('/quote', 'Swap_Bot')).toEqual({ kind: 'ours', text: '/quote' });
    expect(commandAddressing('/quote@other_bot 1', 'Swap_Bot')).toEqual({ kind: 'other' });
    expect(commandAddressing('hello /quote', 'Swap_Bot')).toEqual({ kind: 'none' });
    expect(commandAddressing('/start d_abc', 'Swap_Bot')).toEqual({ kind: 'ours', text: '/start d_abc' });
  });

  it('private: everything; groups: commands and replies to the bot only', () => {
    expect(routeText({ chat: priv, from: user }, '0xabc', bot)).toEqual({ kind: 'handle', text: '0xabc' });
    expect(routeText({ chat: group, from: user }, '0xabc', bot)).toEqual({ kind: 'ignore' });
    const toBot = { chat: group, from: user, reply_to_message: { from: { id: 42 } } } as unknown as Pick<
      Message,
      'chat' | 'from' | 'reply_to_message'
    >;
    expect(routeText(toBot, '0xabc', bot)).toEqual({ kind: 'handle', text: '0xabc' });
    const toOther = { chat: group, from: user, reply_to_message: { from: { id: 43 } } } as unknown as Pick<
      Message,
      'chat' | 'from' | 'reply_to_message'
    >;
    expect(routeText(toOther, '0xabc', bot)).toEqual({ kind: 'ignore' });
    expect(routeText({ chat: group, from: { ...user, is_bot: true } }, '/quote', bot)).toEqual({ kind: 'ignore' });
  });

  it('knows users, channels and anonymous admins apart', () => {
    expect(actorOf({ chat: group, from: user })).toEqual({ userId: '7', userName: 'Ann Lee', dmUserId: 7, actsAsChat: false });
    const anon = actorOf({
      chat: group,
      from: { id: 1087968824, is_bot: true, first_name: 'Group', username: 'GroupAnonymousBot' },
      sender_chat: group,
    });
    expect(anon).toMatchObject({ userId: '-100', actsAsChat: true });
    expect(anon?.dmUserId).toBeUndefined();
    expect(chatKind({ type: 'supergroup' })).toBe('group');
    expect(chatKind({ type: 'channel' })).toBe('channel');
  });
});

describe('Telegram failures', () => {
  const g = (code: number, description: string, retry_after?: number) =>
    new GrammyError(
      'x',
      { ok: false, error_code: code, description, ...(retry_after ? { parameters: { retry_after } } : {}) },
      'sendMessage',
      {},
    );
  it('normalises what the tracking queue needs to decide', () => {
    expect(classifyFailure(g(429, 'Too Many Requests', 3))).toEqual({ failure: 'rate_limited', retryAfterMs: 3000 });
    expect(classifyFailure(g(403, 'Forbidden: bot was blocked by the user')).failure).toBe('gone');
    expect(classifyFailure(g(400, 'Bad Request: chat not found')).failure).toBe('gone');
    expect(classifyFailure(g(400, 'Bad Request: group chat was upgraded to a supergroup chat')).failure).toBe('gone');
    expect(classifyFailure(g(400, 'Bad Request: message to edit not found')).failure).toBe('message_gone');
    expect(classifyFailure(g(400, 'Bad Request: BUTTON_DATA_INVALID')).failure).toBe('rejected');
    expect(classifyFailure(g(500, 'Internal Server Error')).failure).toBe('transient');
    expect(classifyFailure(new HttpError('Network request failed', new Error('x'))).failure).toBe('transient');
  });

  it('describes a network error without the URL that holds the token', () => {
    const token = '123:SECRET-TOKEN-abcdefghijklmnop';
    const inner = new Error(`request to https://api.telegram.org/bot${token}/sendMessage failed`);
    expect(describeError(new HttpError("Network request for 'sendMessage' failed!", inner), token)).not.toContain('SECRET');
    expect(describeError(new Error(`oops ${token}`), token)).not.toContain('SECRET');
  });
});

describe('command menu', () => {
  it('offers every command privately and the group ones in groups', () => {
    const priv = telegramCommands(COMMANDS, 'private').map((c) => c.command);
    const grp = telegramCommands(COMMANDS, 'group').map((c) => c.command);
    expect(priv).toEqual(COMMANDS.map((c) => c.name));
    expect(grp).toEqual(COMMANDS.filter((c) => c.inGroups).map((c) => c.name));
    expect(grp).not.toContain('history');
  });
});
