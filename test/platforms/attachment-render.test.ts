import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/contracts/reply.js';
import { ConsoleScreen } from '../../src/platforms/console/screen.js';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.js';
import { restMessage } from '../../src/platforms/discord/payload.js';
import { renderReply as renderTelegram } from '../../src/platforms/telegram/render.js';

/** A reply with a file (the /history CSV export) as each adapter renders it. */
const csv = new TextEncoder().encode('date,swap_id\r\n2026-01-01T00:00:00.000Z,abc\r\n');
const reply: Reply = {
  title: 'Your swaps as CSV (1)',
  lines: [[{ kind: 'text', text: 'Newest first.' }]],
  attachment: { data: csv, filename: 'swapbot-swaps-2026-01-01.csv', mimeType: 'text/csv' },
  target: 'here',
};

describe('a file attachment in each adapter', () => {
  it('Telegram: the text, then the file as a document; edits still target the text', () => {
    const r = renderTelegram(reply);
    expect(r.messages.map((m) => m.kind)).toEqual(['text', 'document']);
    expect(r.main).toBe(0);
    expect(r.messages[1]?.document?.filename).toBe('swapbot-swaps-2026-01-01.csv');
  });

  it('Discord: an attachment of type text/csv beside the embed', () => {
    const m = renderDiscord(reply);
    expect(m.files.map((f) => f.name)).toEqual(['swapbot-swaps-2026-01-01.csv']);
    const rest = restMessage(m);
    expect(rest.files[0]?.contentType).toBe('text/csv');
    expect(m.files[0]?.data.toString()).toContain('swap_id');
  });

  it('terminal: saved to a file whose path is printed', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    await new ConsoleScreen(out).print(reply);
    const path = /saved to (\S+)/.exec(text)?.[1];
    expect(path).toMatch(/swapbot-swaps-2026-01-01\.csv$/);
    expect(await readFile(path!, 'utf8')).toContain('2026-01-01T00:00:00.000Z,abc');
  });

  it('terminal chat: into its export folder (DATA_DIR/exports), a second export beside the first, never over it', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'swapbot-test-')), 'exports');
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    const screen = new ConsoleScreen(out);
    screen.exportDir = dir;
    await screen.print(reply);
    await screen.print(reply);
    const paths = [...text.matchAll(/saved to (\S+)/g)].map((m) => m[1]);
    expect(paths).toEqual([join(dir, 'swapbot-swaps-2026-01-01.csv'), join(dir, 'swapbot-swaps-2026-01-01-2.csv')]);
    expect(await readFile(paths[1]!, 'utf8')).toContain('2026-01-01T00:00:00.000Z,abc');
  });
});
