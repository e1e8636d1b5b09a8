import { createInterface } from 'node:readline';
import type { BotCore } from '../../bot/core.js';
import type { Incoming } from '../../contracts/incoming.js';
import type { Button } from '../../contracts/reply.js';
import { resolveLocale, t, type Locale } from '../../i18n/index.js';
import { ConsoleMessenger } from './messenger.js';
import { safe } from './render.js';
import { ConsoleScreen } from './screen.js';

export interface ConsoleChatOptions {
  core: BotCore;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  userId?: string;
  userName?: string;
  /** The user's language tag (--lang, else LANG): the core resolves it. */
  locale?: string;
  /**
   * The language of the chat's own words (the prompt's hint, "there is no button"), asked before
   * each line is answered so a /language choice shows at once; default: `locale` resolved.
   */
  language?: () => Promise<Locale>;
  /** Draw QR codes as characters (only on a real terminal). */
  isTTY?: boolean;
  /** Where files from replies (the CSV export) are written; default a fresh temp folder each. */
  exportDir?: string;
  /** Called once input has ended and every line has been answered. */
  onEnd?: () => void;
}

export interface ConsoleChat {
  /** Prints pushed updates into this chat (give it to the tracking worker). */
  readonly messenger: ConsoleMessenger;
  /** Resolves when input has ended and every line has been answered. */
  readonly done: Promise<void>;
  /** Handles one line as if typed; resolves when its replies are printed. */
  send(line: string): Promise<void>;
  /** Stops reading input. */
  close(): void;
}

/**
 * A private chat with the bot over a terminal or a pipe: each input line is a message from one
 * user; replies print as text with buttons numbered by a running counter (screen.ts), and typing a
 * number presses the button printed with it, on any card still on screen, pushed updates
 * included. When a reply asks for free text a plain number is the answer: its buttons print as
 * [#7], the prompt says so, and "#7" presses. Copy buttons print their text, link buttons their URL.
 */
export function startConsoleChat(opts: ConsoleChatOptions): ConsoleChat {
  const userId = opts.userId ?? 'console-user';
  const userName = opts.userName ?? 'You';
  const screen = new ConsoleScreen(opts.output, opts.isTTY ?? false);
  screen.locale = resolveLocale(opts.locale, 'en');
  if (opts.exportDir) screen.exportDir = opts.exportDir;
  const messenger = new ConsoleMessenger(screen);
  const base = {
    platform: 'console' as const,
    userId,
    userName,
    chatId: userId,
    chatKind: 'private' as const,
    ...(opts.locale ? { locale: opts.locale } : {}),
  };
  let queue: Promise<void> = Promise.resolve();

  async function deliver(incoming: Incoming): Promise<void> {
    const replies = await opts.core.handle(incoming);
    for (const r of replies) {
      const messageId = await screen.print(r, { updated: r.mode === 'edit' });
      // The deposit card: tracking reprints it as the swap moves on.
      if (r.depositCardOf)
        await opts.core.depositCardSent?.(
          r.depositCardOf,
          { platform: 'console', chatId: userId, chatKind: 'private' },
          { platform: 'console', chatId: userId, messageId },
        );
    }
  }

  async function press(b: Button, messageId: string): Promise<void> {
    switch (b.kind) {
      case 'action':
        return deliver({ ...base, action: b.action, messageRef: { platform: 'console', chatId: userId, messageId } });
      case 'copy':
        screen.write(t(screen.locale, 'console.copied', { text: safe(b.text) }));
        return screen.flush();
      case 'url':
      case 'webapp':
        screen.write(t(screen.locale, 'console.open', { url: safe(b.url) }));
        return screen.flush();
      case 'deeplink':
        return deliver({ ...base, text: `/start ${b.payload}` });
      case 'share':
        return; // never shown in the terminal (render.ts)
    }
  }

  async function handleLine(raw: string): Promise<void> {
    const text = raw.trim();
    if (text === '') return;
    if (opts.language) screen.locale = await opts.language().catch(() => screen.locale);
    const m = /^(#)?(\d{1,6})$/.exec(text);
    const range = screen.range();
    if (m && range && (m[1] === '#' || !screen.promptOpen)) {
      const n = Number(m[2]);
      const b = screen.button(n);
      if (b) return press(b.button, b.messageId);
      screen.write(t(screen.locale, 'console.noButton', { n, from: range.from, to: range.to }));
      return screen.flush();
    }
    await deliver({ ...base, text });
    // The terminal's own words after the core's /help: how to leave this chat.
    if (/^\/help(\s|$)/i.test(text)) {
      screen.write(t(screen.locale, 'console.banner.quit'));
      await screen.flush();
    }
  }

  const send = (line: string): Promise<void> => {
    const run = queue.then(() => handleLine(line));
    queue = run.catch((err: unknown) => {
      screen.write(t(screen.locale, 'console.lineFailed', { reason: safe(err instanceof Error ? err.message : String(err)) }));
    });
    return run.catch(() => undefined);
  };

  const rl = createInterface({ input: opts.input, terminal: false, crlfDelay: Infinity });
  rl.on('line', (l) => void send(l));
  const done = new Promise<void>((resolve) => {
    rl.once('close', () => {
      void queue
        .then(() => screen.flush())
        .then(() => {
          opts.onEnd?.();
          resolve();
        });
    });
  });
  return { messenger, done, send, close: () => rl.close() };
}
