import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attachment, Button, Reply } from '../../contracts/reply.js';
import { qrPayload, terminalQr } from '../../bot/cards/qr.js';
import { renderReply } from './render.js';

/**
 * The terminal both the chat and the messenger write to: prints replies one at a time (in
 * order, even when a QR code takes a moment to draw) and remembers the buttons of the last reply
 * that had some, so typing their number presses them.
 */
export class ConsoleScreen {
  private chain: Promise<void> = Promise.resolve();
  private messageId = 0;
  /** Buttons of the last printed reply that had any, with the id of that message. */
  lastButtons: { buttons: Button[]; messageId: string } | undefined;
  /** Whether the last reply asked for free text (then plain numbers are answers). */
  promptOpen = false;

  constructor(
    readonly output: NodeJS.WritableStream,
    readonly isTTY = false,
  ) {}

  /** Prints a reply; resolves with its message id once written. */
  print(reply: Reply, opts: { updated?: boolean; messageId?: string; header?: string } = {}): Promise<string> {
    const id = opts.messageId ?? String(++this.messageId);
    const run = this.chain.then(async () => {
      const hashed = reply.prompt !== undefined;
      const payload = reply.image && this.isTTY ? qrPayload(reply.image) : undefined;
      const imageArt = payload ? await terminalQr(payload).catch(() => undefined) : undefined;
      const savedTo = reply.attachment ? await saveAttachment(reply.attachment).catch(() => undefined) : undefined;
      const rendered = renderReply(reply, { updated: opts.updated, hashed, imageArt, ...(savedTo ? { savedTo } : {}) });
      this.output.write(`\n${opts.header ? `${opts.header}\n` : ''}${rendered.text}\n`);
      if (rendered.buttons.length > 0) this.lastButtons = { buttons: rendered.buttons, messageId: id };
      this.promptOpen = hashed;
    });
    this.chain = run.catch(() => undefined);
    return run.then(() => id);
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

/** A file from a reply (the CSV export), written to a fresh private temp folder; resolves to its path. */
async function saveAttachment(a: Attachment): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'swapbot-'));
  const path = join(dir, a.filename.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60) || 'file');
  await writeFile(path, a.data, { mode: 0o600 });
  return path;
}
