import { resolve } from 'node:path';
import { ApiError } from '../layerswap/errors.js';
import { FINAL_SWAP_STATUSES } from '../layerswap/schemas.js';
import { startConsoleChat } from '../platforms/console/adapter.js';
import type { Messenger } from '../contracts/messenger.js';
import type { Runtime } from './runtime.js';
import { knownLocale, LOCALE_NAMES, LOCALES, resolveLocale, t, type Locale } from '../i18n/index.js';
import { LanguageStore } from '../i18n/store.js';

export interface ConsoleRun {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  isTTY: boolean;
  /** After input ends: stay at least this long; undefined = 0. */
  lingerSeconds: number | undefined;
  /** Starts tracking's workers, delivering to this chat through its messenger. */
  startWorkers(messenger: Messenger): Promise<void>;
  /** How often to check whether followed swaps are done (ms). */
  checkEveryMs?: number;
  /** The user's language tag (--lang, else LANG). */
  locale?: string;
  /**
   * The tag came from --lang: an explicit choice, so it beats a language saved earlier with
   * /language, and is saved as the choice (pushed updates read the saved one).
   */
  localeExplicit?: boolean;
}

const USER_ID = 'console-user';
const CHAT = { platform: 'console' as const, chatId: USER_ID, chatKind: 'private' as const };

/**
 * The in-process sandbox forgets its swaps when it stops; Redis still follows them. Follows of
 * swaps it answers 404 for are dropped at start, so the chat never waits for a swap that no
 * longer exists (the pipe example would hang at the end of its input). Returns how many.
 */
async function dropForgotten(rt: Runtime): Promise<number> {
  if (!rt.sandbox) return 0;
  let dropped = 0;
  for (const f of await rt.tracking.service.listFollowed(CHAT)) {
    if (f.status && FINAL_SWAP_STATUSES.has(f.status)) continue;
    const gone = await rt.api.getSwap(f.swapId, {}, { maxRetries: 0 }).then(
      () => false,
      (err: unknown) => err instanceof ApiError && err.status === 404,
    );
    if (gone && (await rt.tracking.service.unfollow(f.swapId, CHAT))) dropped++;
  }
  return dropped;
}

/**
 * The terminal chat as a process: one user in a private chat. When input ends (Ctrl-D, or the end
 * of a pipe) it keeps running until every swap it follows has reached a final status, and at least
 * --linger seconds, so `printf '/swap ...' | swapbot console` shows the swap through to the end.
 */
export async function runConsole(rt: Runtime, run: ConsoleRun): Promise<void> {
  const out = run.output;
  const languages = new LanguageStore(rt.redis, rt.config.REDIS_PREFIX);
  const explicit = run.localeExplicit ? knownLocale(run.locale) : undefined;
  if (explicit) await languages.set('user', 'console', USER_ID, explicit);
  // The terminal's own words follow the replies: the saved choice, else the tag (LANG).
  const language = async (): Promise<Locale> => (await languages.get('user', 'console', USER_ID)) ?? resolveLocale(run.locale, 'en');
  const locale = await language();
  const manual = rt.config.SANDBOX_DEPOSIT_DELAY_MS === 'off';
  const lines = rt.sandbox
    ? [
        t(locale, 'console.banner.sandbox', { url: rt.sandbox.url }),
        // With SANDBOX_DEPOSIT_DELAY_MS=off nothing arrives by itself: say how a deposit is made instead.
        manual ? t(locale, 'console.banner.notRealManual', { url: rt.sandbox.url }) : t(locale, 'console.banner.notReal'),
        t(locale, 'console.banner.try'),
      ]
    : [t(locale, 'console.banner.real', { url: rt.config.LAYERSWAP_API_URL })];
  if (!rt.sandbox && rt.api.keyless) lines.push(t(locale, 'console.banner.keyless'));
  lines.push(t(locale, 'console.banner.quit'));
  // --lang is kept as the choice for later runs too: said, not done silently.
  if (explicit) lines.push(t(locale, 'console.langSaved', { name: explicit === 'pseudo' ? 'pseudo' : LOCALE_NAMES[explicit] }));
  if (run.localeExplicit && !explicit)
    lines.push(
      t(locale, 'console.unknownLang', {
        tag: String(run.locale).slice(0, 20),
        name: locale === 'pseudo' ? 'pseudo' : LOCALE_NAMES[locale],
        list: LOCALES.join(', '),
      }),
    );
  out.write(`${lines.join('\n')}\n\n`);
  const gone = await dropForgotten(rt);
  if (gone > 0) out.write(`${t(locale, 'console.forgotten', { count: gone })}\n\n`);
  const chat = startConsoleChat({
    exportDir: resolve(rt.config.DATA_DIR, 'exports'),
    core: rt.core,
    input: run.input,
    output: out,
    userId: USER_ID,
    userName: 'You',
    isTTY: run.isTTY,
    language,
    ...(run.locale ? { locale: run.locale } : {}),
  });
  await run.startWorkers(chat.messenger);
  await chat.done;

  const lingerUntil = Date.now() + (run.lingerSeconds ?? 0) * 1000;
  const target = CHAT;
  let announced = false;
  for (;;) {
    const followed = await rt.tracking.service.listFollowed(target);
    const open = followed.filter((f) => !f.status || !FINAL_SWAP_STATUSES.has(f.status));
    // Wait for the last notifications too, so the final card is printed before we exit.
    const pending = open.length === 0 ? await rt.tracking.pendingNotifications() : 1;
    if (open.length === 0 && pending === 0 && Date.now() >= lingerUntil) break;
    if (open.length > 0 && !announced) {
      out.write(`\n(input ended; waiting for ${open.length} followed swap${open.length === 1 ? '' : 's'} to finish. Ctrl-C to stop.)\n`);
      announced = true;
    }
    await new Promise((r) => setTimeout(r, run.checkEveryMs ?? 500));
  }
  chat.close();
}
