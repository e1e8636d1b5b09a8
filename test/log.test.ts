import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
  return { lines, destination };
}

describe('log', () => {
  it('redacts secrets by value in messages, errors and nested objects, and by path', () => {
    const { lines, destination } = capture();
    const log = createLogger({ destination, secrets: ['sk_live_abcdef', '123:TOKENVALUE'] });
    log.info({ url: 'https://api.telegram.org/bot123:TOKENVALUE/getMe', headers: { 'x-ls-apikey': 'whatever' } }, 'calling with sk_live_abcdef');
    log.error({ err: new Error('failed for bot123:TOKENVALUE') }, 'boom');
    const out = lines.join('');
    expect(out).not.toContain('TOKENVALUE');
    expect(out).not.toContain('sk_live_abcdef');
    expect(out).not.toContain('whatever');
    expect(out).toContain('[redacted]');
    expect(out).toContain('boom');
  });
});
