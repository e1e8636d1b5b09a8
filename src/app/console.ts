import { FINAL_SWAP_STATUSES } from '../layerswap/schemas.js';
import { startConsoleChat } from '../platforms/console/index.js';
import type { Messenger } from '../contracts/messenger.js';
import type { Runtime } from './runtime.js';

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
}

const USER_ID = 'console-user';

/**
 * The terminal chat as a process: one user in a private chat. When input ends (Ctrl-D, or the end
 * of a pipe) it keeps running until every swap it follows has reached a final status, and at least
 * --linger seconds, so `printf '/swap ...' | swapbot console` shows the swap through to the end.
 */
export async function runConsole(rt: Runtime, run: ConsoleRun): Promise<void> {
  const out = run.output;
  if (rt.sandbox) {
    out.write(
      `swapbot terminal chat, against the local SANDBOX of the Layerswap API at ${rt.sandbox.url}\n` +
        'Nothing here is real: deposits arrive by themselves after a few seconds. Set LAYERSWAP_API_KEY to use the real service.\n' +
        'Try: /quote 100 USDC arbitrum base   (type a button number to press it, /help for more)\n\n',
    );
  } else {
    out.write(`swapbot terminal chat against ${rt.config.LAYERSWAP_API_URL}. Type /help to begin.\n\n`);
  }
  const chat = startConsoleChat({ core: rt.core, input: run.input, output: out, userId: USER_ID, userName: 'You', isTTY: run.isTTY, ...(run.locale ? { locale: run.locale } : {}) });
  await run.startWorkers(chat.messenger);
  await chat.done;

  const lingerUntil = Date.now() + (run.lingerSeconds ?? 0) * 1000;
  const target = { platform: 'console' as const, chatId: USER_ID, chatKind: 'private' as const };
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
