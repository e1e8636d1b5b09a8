import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitReply } from '../../src/bot/kernel/fit.js';
import type { ChatTarget, MessageRef, Platform } from '../../src/contracts/incoming.js';
import type { DeliveryFailure, Messenger } from '../../src/contracts/messenger.js';
import { actionButton, line, type Reply } from '../../src/contracts/reply.js';
import { ConsoleMessenger } from '../../src/platforms/console/messenger.js';
import { ConsoleScreen } from '../../src/platforms/console/screen.js';
import { DiscordMessenger } from '../../src/platforms/discord/messenger.js';
import { TelegramMessenger } from '../../src/platforms/telegram/messenger.js';
import { FakeDiscord } from '../e2e/discord/fake-discord.js';
import type { FakeUser, StoredMessage as DiscordMessage } from '../e2e/discord/fake-world.js';
import { buttonLabels, embedText, unescape } from '../e2e/discord/harness.js';
import { FakeBotApi } from '../e2e/telegram/fake-bot-api.js';
import { newGroup, newUser } from '../e2e/telegram/harness.js';
import { deliveryFailure } from '../support/delivery.js';

/**
 * One contract for every Messenger (what tracking pushes through), run against the real clients:
 * grammY against the fake Bot API, discord.js against the fake Discord (both refuse what the
 * platform documents it refuses), and the terminal. Each platform is checked against what its
 * chat shows, never against another platform. Model: the Chat SDK's adapter contracts, BullMQ's
 * adapter conformance suite.
 */

/** What a person sees of one message. */
interface Seen {
  /** Title, text and button labels. */
  text: string;
  /** The picture's bytes, when the message shows one ('' bytes where the platform shows only a note). */
  image: Uint8Array | undefined;
  /** Delivered without a notification sound. */
  silent?: boolean;
}

interface Subject {
  platform: Platform;
  messenger: Messenger;
  /** A private chat the bot may write to. */
  privateChat(): ChatTarget;
  /** A group chat the bot may write to; absent where there are none (the terminal). */
  groupChat?(): ChatTarget;
  seen(ref: MessageRef): Seen | undefined;
  /** How many messages of the bot the chat holds; absent where a chat is append-only (the terminal prints edits anew). */
  count?(target: ChatTarget): number;
  /** How the platform can refuse; absent where nothing can (the terminal). */
  refusals?: {
    /** A person deletes the message. */
    userDeletes(ref: MessageRef): void;
    /** A chat the bot may no longer write to (blocked, kicked, unknown). */
    goneChat(): ChatTarget;
    /** A person who does not take messages from the bot (never started it, DMs closed). */
    closedPrivateChat(): ChatTarget;
    /** The platform refuses the next send to `target` this way. */
    next(kind: Exclude<DeliveryFailure, 'gone' | 'message_gone'>, target: ChatTarget): void;
  };
  /** The bot's own reactions on a message, where the platform has them. */
  reactions?(ref: MessageRef): string[];
  close(): Promise<void>;
}

async function telegram(): Promise<Subject> {
  const fake = await FakeBotApi.start();
  const messenger = new TelegramMessenger({ token: fake.token, apiRoot: fake.apiRoot });
  const privateChat = (): ChatTarget => {
    const u = newUser();
    fake.openDm(u);
    return { platform: 'telegram', chatId: String(u.id), chatKind: 'private' };
  };
  const labels = (markup: unknown): string[] =>
    ((markup as { inline_keyboard?: Array<Array<{ text: string }>> } | undefined)?.inline_keyboard ?? []).flat().map((b) => b.text);
  return {
    platform: 'telegram',
    messenger,
    privateChat,
    groupChat: () => {
      const g = fake.chat(newGroup());
      return { platform: 'telegram', chatId: String(g.id), chatKind: 'group' };
    },
    seen: (ref) => {
      const m = fake.message(Number(ref.chatId), Number(ref.messageId));
      if (!m) return undefined;
      return {
        text: [m.text ?? m.caption ?? '', ...labels(m.markup)].join('\n'),
        image: m.photoSize ? (m.photoBytes ?? new Uint8Array()) : undefined,
        silent: m.silent === true,
      };
    },
    count: (target) => fake.botMessages(Number(target.chatId)).length,
    refusals: {
      userDeletes: (ref) => fake.userDeletes(Number(ref.chatId), Number(ref.messageId)),
      goneChat: () => {
        const t = privateChat();
        fake.blockBy(Number(t.chatId));
        return t;
      },
      // Never pressed Start: "Forbidden: bot can't initiate conversation with a user".
      closedPrivateChat: () => ({ platform: 'telegram', chatId: String(newUser().id), chatKind: 'private' }),
      next: (kind, target) => {
        const chatId = Number(target.chatId);
        if (kind === 'rate_limited')
          fake.failNext({ method: 'sendMessage', chatId, code: 429, description: 'Too Many Requests: retry after 3', retryAfter: 3 });
        if (kind === 'rejected')
          fake.failNext({ method: 'sendMessage', chatId, code: 400, description: "Bad Request: can't parse entities" });
        if (kind === 'transient') fake.failNext({ method: 'sendMessage', chatId, code: 502, description: 'Bad Gateway' });
      },
    },
    reactions: (ref) => fake.message(Number(ref.chatId), Number(ref.messageId))?.reactions ?? [],
    close: () => fake.close(),
  };
}

async function discord(): Promise<Subject> {
  const token = 'MTEw.contract.test-token-abcdef';
  const fake = await FakeDiscord.start({ token, applicationId: '1100000000000000010' });
  const owner = fake.world.addUser({ id: '2400000000000000001', username: 'owner' });
  const messenger = new DiscordMessenger({ token, api: fake.apiUrl });
  let users = 0;
  const user = (opts: { dmClosed?: boolean } = {}): FakeUser =>
    fake.world.addUser({ id: String(2400000000000001000n + BigInt(++users)), username: `u${users}`, ...opts });
  // A fresh channel per chat: discord.js keeps each channel's rate-limit bucket on the real clock.
  const channel = (): ChatTarget => ({
    platform: 'discord',
    chatId: fake.world.addGuild({ name: 'G', ownerId: owner.id, channels: ['general'] }).channelIds[0] ?? '',
    chatKind: 'group',
  });
  const shown = (ref: MessageRef): DiscordMessage | undefined => {
    const m = fake.world.messages.get(ref.messageId);
    return m && !m.deleted ? m : undefined;
  };
  const channelOf = (target: ChatTarget): string =>
    target.chatKind === 'private' ? fake.world.dmChannel(target.chatId).id : target.chatId;
  return {
    platform: 'discord',
    messenger,
    privateChat: () => ({ platform: 'discord', chatId: user().id, chatKind: 'private' }),
    groupChat: channel,
    seen: (ref) => {
      const m = shown(ref);
      if (!m) return undefined;
      return {
        text: [unescape(embedText(m)), String(m.body.content ?? ''), ...buttonLabels(m)].join('\n'),
        image: m.attachments[0]?.bytes,
        silent: (Number(m.body.flags ?? 0) & (1 << 12)) !== 0,
      };
    },
    count: (target) => fake.messagesIn(channelOf(target)).filter((m) => !m.deleted).length,
    refusals: {
      userDeletes: (ref) => {
        const m = shown(ref);
        if (m) m.deleted = true;
      },
      goneChat: () => ({ platform: 'discord', chatId: '999999999999999999', chatKind: 'group' }),
      closedPrivateChat: () => ({ platform: 'discord', chatId: user({ dmClosed: true }).id, chatKind: 'private' }),
      next: (kind, target) => {
        const path = new RegExp(`^/channels/${channelOf(target)}/messages$`);
        if (kind === 'rate_limited') fake.fail({ method: 'POST', path, status: 429, retryAfter: 3 });
        if (kind === 'rejected') fake.fail({ method: 'POST', path, status: 400, code: 50035, message: 'Invalid Form Body' });
        if (kind === 'transient') fake.fail({ method: 'POST', path, status: 502 });
      },
    },
    reactions: (ref) => shown(ref)?.reactions ?? [],
    close: () => fake.close(),
  };
}

/** The terminal's screen, remembering what each message id printed last. */
class RecordingScreen extends ConsoleScreen {
  readonly printed = new Map<string, string>();
  private text = '';
  constructor() {
    const out = new PassThrough();
    super(out, false);
    out.on('data', (chunk: Buffer) => void (this.text += chunk.toString('utf8')));
  }
  override async print(reply: Reply, opts: Parameters<ConsoleScreen['print']>[1] = {}): Promise<string> {
    await this.flush();
    const before = this.text.length;
    const id = await super.print(reply, opts);
    this.printed.set(id, this.text.slice(before));
    return id;
  }
}

function terminal(): Promise<Subject> {
  const screen = new RecordingScreen();
  const messenger = new ConsoleMessenger(screen);
  return Promise.resolve({
    platform: 'console',
    messenger,
    privateChat: () => ({ platform: 'console', chatId: 'console-user', chatKind: 'private' }),
    seen: (ref) => {
      const text = screen.printed.get(ref.messageId);
      // A terminal shows a picture as its note ("[image: …]"), and a QR code drawn in characters when it is a TTY.
      return text === undefined ? undefined : { text, image: /\[image: /.test(text) ? new Uint8Array() : undefined };
    },
    close: () => Promise.resolve(),
  });
}

const card = (status: string, extra: Partial<Reply> = {}): Reply => ({
  title: `Swap 1a2b3c4d: ${status}`,
  tone: 'pending',
  lines: [line(`Status: ${status}`)],
  buttons: [[actionButton('Refresh', 'st:1a2b3c4d')]],
  target: 'here',
  ...extra,
});
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array<number>(300).fill(7)]);

describe.each([
  ['Telegram (grammY, fake Bot API)', telegram],
  ['Discord (discord.js, fake Discord)', discord],
  ['terminal', terminal],
] as const)('Messenger contract: %s', (_name, start) => {
  let s: Subject;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(async () => s?.close());

  it('sends a card the chat shows, and says where it is', async () => {
    const target = s.privateChat();
    const ref = await s.messenger.send(target, card('Waiting for your deposit'));
    expect(ref.platform).toBe(s.platform);
    expect(s.messenger.platform).toBe(s.platform);
    const seen = s.seen(ref);
    expect(seen?.text).toContain('Swap 1a2b3c4d: Waiting for your deposit');
    expect(seen?.text).toContain('Status: Waiting for your deposit');
    expect(seen?.text).toContain('Refresh');
    if (s.count) expect(s.count(target)).toBe(1);
  });

  it('edits a card in place; an identical edit succeeds and changes nothing', async () => {
    const target = s.groupChat?.() ?? s.privateChat();
    const ref = await s.messenger.send(target, card('Waiting'));
    const edited = await s.messenger.edit(ref, card('Deposit seen'));
    expect(edited).toEqual(ref);
    expect(s.seen(ref)?.text).toContain('Status: Deposit seen');
    expect(s.seen(ref)?.text).not.toContain('Status: Waiting');
    const again = await s.messenger.edit(ref, card('Deposit seen'));
    expect(again).toEqual(ref);
    expect(s.seen(ref)?.text).toContain('Status: Deposit seen');
    if (s.count) expect(s.count(target)).toBe(1);
  });

  it('sends a picture with its card; an edit without one shows the card without it', async () => {
    const target = s.privateChat();
    const ref = await s.messenger.send(
      target,
      card('Waiting', { image: { png, alt: 'QR code of the deposit address', filename: 'deposit-qr.png' } }),
    );
    const first = s.seen(ref);
    expect(first?.image).toBeDefined();
    expect(first?.text).toContain('Status: Waiting');
    const now = await s.messenger.edit(ref, card('Completed'));
    expect(s.seen(now)?.text).toContain('Status: Completed');
    expect(s.seen(now)?.image).toBeUndefined();
    // Absent editInPlace means edit() never sends anew (contracts/messenger.ts); where it exists,
    // edit() may send the card anew (Telegram cannot turn a photo into text), and editInPlace is
    // what keeps a deposit card's place (below).
    if (!s.messenger.editInPlace) {
      expect(now).toEqual(ref);
      if (s.count) expect(s.count(target)).toBe(1);
    }
  });

  it('editInPlace keeps the message where it is, its picture replaced by a neutral one', async (ctx) => {
    const editInPlace = s.messenger.editInPlace?.bind(s.messenger);
    if (!editInPlace) return ctx.skip();
    const target = s.privateChat();
    const ref = await s.messenger.send(target, card('Waiting', { image: { png, alt: 'QR code', filename: 'deposit-qr.png' } }));
    await editInPlace(ref, card('Deposit seen'));
    const seen = s.seen(ref);
    expect(seen?.text).toContain('Status: Deposit seen');
    // The address's QR code is gone from the message (a deposit card never invites a second payment).
    if (seen?.image) expect(Buffer.from(seen.image).equals(Buffer.from(png))).toBe(false);
    if (s.count) expect(s.count(target)).toBe(1);
  });

  it('a silent send arrives without a notification where the platform has the choice', async (ctx) => {
    const target = s.privateChat();
    const ref = await s.messenger.send(target, card('Completed'), { silent: true });
    const loud = await s.messenger.send(target, card('Completed'));
    if (s.seen(ref)?.silent === undefined) return ctx.skip();
    expect(s.seen(ref)?.silent).toBe(true);
    expect(s.seen(loud)?.silent).toBe(false);
  });

  it('a reply fitted by the core is accepted whatever its size (the platform checks its own limits)', async () => {
    const huge: Reply = {
      title: 'T'.repeat(400),
      lines: Array.from({ length: 120 }, (_, i) => line(`line ${i} `.padEnd(90, '·'))),
      fields: Array.from({ length: 40 }, (_, i) => ({ name: `field ${i}`, value: line('v'.repeat(1500)) })),
      buttons: Array.from({ length: 8 }, (_, r) =>
        Array.from({ length: 8 }, (_, b) => actionButton(`${r}.${b} `.padEnd(100, 'x'), `a:${r}${b}`)),
      ),
      target: 'here',
    };
    const target = s.groupChat?.() ?? s.privateChat();
    const ref = await s.messenger.send(target, fitReply(huge));
    expect(s.seen(ref)?.text).toContain('(shortened)');
  });

  it('reacts on a message once, however often asked', async (ctx) => {
    const react = s.messenger.react?.bind(s.messenger);
    if (!react || !s.reactions) return ctx.skip();
    const ref = await s.messenger.send(s.privateChat(), card('Completed'));
    await react(ref, '✅');
    await react(ref, '✅');
    expect(s.reactions(ref)).toHaveLength(1);
  });

  describe('refusals, as the same DeliveryError kinds everywhere', () => {
    it('a chat the bot may not write to is gone', async (ctx) => {
      if (!s.refusals) return ctx.skip();
      expect((await deliveryFailure(s.messenger.send(s.refusals.goneChat(), card('x')))).failure).toBe('gone');
    });

    it('a private chat the platform will not open for the bot is gone (the caller falls back, never to a group)', async (ctx) => {
      if (!s.refusals) return ctx.skip();
      expect((await deliveryFailure(s.messenger.send(s.refusals.closedPrivateChat(), card('x')))).failure).toBe('gone');
    });

    it('editing a message a person deleted is message_gone', async (ctx) => {
      if (!s.refusals) return ctx.skip();
      const ref = await s.messenger.send(s.privateChat(), card('Waiting'));
      s.refusals.userDeletes(ref);
      expect((await deliveryFailure(s.messenger.edit(ref, card('Completed')))).failure).toBe('message_gone');
    });

    it('a 429 is rate_limited with the wait the platform asked for', async (ctx) => {
      if (!s.refusals) return ctx.skip();
      const target = s.groupChat?.() ?? s.privateChat();
      s.refusals.next('rate_limited', target);
      const e = await deliveryFailure(s.messenger.send(target, card('x')));
      expect(e.failure).toBe('rate_limited');
      expect(e.retryAfterMs).toBeGreaterThanOrEqual(2_000);
      expect(e.retryAfterMs).toBeLessThanOrEqual(4_000);
    });

    it('content the platform refuses is rejected, an outage transient', async (ctx) => {
      if (!s.refusals) return ctx.skip();
      const target = s.groupChat?.() ?? s.privateChat();
      s.refusals.next('rejected', target);
      expect((await deliveryFailure(s.messenger.send(target, card('x')))).failure).toBe('rejected');
      const other = s.groupChat?.() ?? s.privateChat();
      s.refusals.next('transient', other);
      const outage = await deliveryFailure(s.messenger.send(other, card('x')));
      expect(outage.failure).toBe('transient');
      expect(outage.platform).toBe(s.platform);
    });
  });
});
