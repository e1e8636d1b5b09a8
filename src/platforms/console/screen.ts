import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Attachment, Button, Reply } from '../../contracts/reply.js';
import QRCode from 'qrcode';
import { t, translator, type Locale } from '../../i18n/index.js';
import { renderReply } from './render.js';

/** How many printed buttons stay pressable by number (the oldest are forgotten past this). */
const KEEP_BUTTONS = 500;

export interface NumberedButton {
  button: Button;
  messageId: string;
}

/**
 * The terminal both the chat and the messenger write to: prints replies one at a time (in
 * order, even when a QR code takes a moment to draw) and numbers every button it prints with a
 * running counter, so a pushed update never takes over the numbers of a card above it: every
 * number on screen keeps pressing the button it is printed beside.
 */
export class ConsoleScreen {
  private chain: Promise<void> = Promise.resolve();
  private messageId = 0;
  private lastNumber = 0;
  private readonly numbered = new Map<number, NumberedButton>();
  /** Whether the last reply asked for free text (then plain numbers are answers). */
  promptOpen = false;
  /** The language of the terminal's own words (the prompt's hint, "there is no button"). */
  locale: Locale = 'en';
  /** Files from replies go here (the terminal chat names DATA_DIR/exports); undefined: a fresh temp folder. */
  exportDir: string | undefined;

  constructor(
    readonly output: NodeJS.WritableStream,
    readonly isTTY = false,
  ) {}

  /** The button printed with this number, while it is remembered. */
  button(n: number): NumberedButton | undefined {
    return this.numbered.get(n);
  }

  /** The numbers that press something now (lowest, highest), or undefined before any button. */
  range(): { from: number; to: number } | undefined {
    const first = this.numbered.keys().next();
    return first.done ? undefined : { from: first.value, to: this.lastNumber };
  }

  /**
   * Prints a reply; resolves with its message id once written. `pushed`: a tracking update, which
   * leaves an open question open (a plain number stays its answer; its buttons print as [#n]).
   */
  print(reply: Reply, opts: { updated?: boolean; messageId?: string; header?: string; pushed?: boolean } = {}): Promise<string> {
    const id = opts.messageId ?? String(++this.messageId);
    const run = this.chain.then(async () => {
      const hashed = reply.prompt !== undefined || (opts.pushed === true && this.promptOpen);
      // A QR code drawn with block characters, from the text it encodes (Image.qr).
      const payload = this.isTTY ? reply.image?.qr : undefined;
      const imageArt = payload ? await QRCode.toString(payload, { type: 'terminal', small: true }).catch(() => undefined) : undefined;
      const savedTo = reply.attachment ? await saveAttachment(reply.attachment, this.exportDir).catch(() => undefined) : undefined;
      const firstNumber = this.lastNumber + 1;
      const pressable = (reply.buttons ?? []).some((row) => row.some((b) => b.kind !== 'share'));
      // At a text step a plain number is an answer: say how to press a button instead.
      const example = pressable ? firstNumber : this.numbered.size > 0 ? this.lastNumber : undefined;
      const promptHint = hashed && example !== undefined ? t(this.locale, 'console.pressHint', { n: example }) : undefined;
      const rendered = renderReply(reply, {
        words: translator(this.locale),
        updated: opts.updated,
        hashed,
        firstNumber,
        imageArt,
        ...(promptHint ? { promptHint } : {}),
        ...(savedTo ? { savedTo } : {}),
      });
      this.output.write(`\n${opts.header ? `${opts.header}\n` : ''}${rendered.text}\n`);
      for (const button of rendered.buttons) this.remember({ button, messageId: id });
      if (!opts.pushed) this.promptOpen = hashed;
    });
    this.chain = run.catch(() => undefined);
    return run.then(() => id);
  }

  private remember(b: NumberedButton): void {
    this.numbered.set(++this.lastNumber, b);
    if (this.numbered.size > KEEP_BUTTONS) this.numbered.delete(this.numbered.keys().next().value as number);
  }

  write(text: string): void {
    this.chain = this.chain.then(() => {
      this.output.write(`${text}\n`);
    });
  }

  /** Resolves when everything queued so far is written. */
  flush(): Promise<void> {
    return this.chain;
  }
}

/**
 * A file from a reply (the CSV export), written to `dir` (made if missing; a name already there
 * gets a numbered sibling, never overwritten) or else to a fresh private temp folder; resolves to its path.
 */
async function saveAttachment(a: Attachment, dir?: string): Promise<string> {
  const name = a.filename.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60) || 'file';
  if (!dir) {
    const path = join(await mkdtemp(join(tmpdir(), 'swapbot-')), name);
    await writeFile(path, a.data, { mode: 0o600 });
    return path;
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const path = resolve(dir, n === 1 ? name : `${stem}-${n}${ext}`);
    try {
      await writeFile(path, a.data, { mode: 0o600, flag: 'wx' });
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 1000) throw err;
    }
  }
}
