import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GrammyError } from 'grammy';
import { asError, createLogger, jobLogger } from '../src/log.js';
import { telegramError } from '../src/platforms/telegram/errors.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, destination };
}

describe('log', () => {
  it('redacts secrets by value in messages, errors and nested objects, and by path', () => {
    const { lines, destination } = capture();
    const log = createLogger({ destination, secrets: ['sk_live_abcdef', '123:TOKENVALUE'] });
    log.info(
      { url: 'https://api.telegram.org/bot123:TOKENVALUE/getMe', headers: { 'x-ls-apikey': 'whatever' } },
      'calling with sk_live_abcdef',
    );
    log.error({ err: new Error('failed for bot123:TOKENVALUE') }, 'boom');
    const out = lines.join('');
    expect(out).not.toContain('TOKENVALUE');
    expect(out).not.toContain('sk_live_abcdef');
    expect(out).not.toContain('whatever');
    expect(out).toContain('[redacted]');
    expect(out).toContain('boom');
  });
});

describe('err by convention', () => {
  const SECRET = '123456:SECRET-bot-token';

  it('scrubs a secret from the message and the stack of an Error under err', () => {
    const { lines, destination } = capture();
    const log = createLogger({ destination, secrets: [SECRET] });
    const err = new Error(`GET https://api.telegram.org/bot${SECRET}/getMe failed`);
    expect(err.stack).toContain(SECRET);
    log.error({ err }, 'boom');
    const logged = JSON.parse(lines[0]!) as { err: { type: string; message: string; stack: string } };
    expect(logged.err.type).toBe('Error');
    expect(logged.err.message).toBe('GET https://api.telegram.org/bot[redacted]/getMe failed');
    expect(logged.err.stack).toContain('bot[redacted]/getMe');
    expect(logged.err.stack).toContain('log.test.ts');
    expect(lines.join('')).not.toContain(SECRET);
  });

  it('logs a DOMException (a timeout) with its name, scrubbed', () => {
    const { lines, destination } = capture();
    createLogger({ destination, secrets: [SECRET] }).warn({ err: new DOMException(`timed out calling ${SECRET}`, 'TimeoutError') }, 'slow');
    const logged = JSON.parse(lines[0]!) as { err: { message: string } };
    expect(logged.err.message).toBe('timed out calling [redacted]');
  });

  it('asError keeps an Error class, name and message, and turns anything else into an Error that says what it was', () => {
    const e = asError(new TypeError('x'));
    expect(e).toBeInstanceOf(TypeError);
    expect({ name: e.name, message: e.message }).toEqual({ name: 'TypeError', message: 'x' });
    expect(asError('plain text').message).toBe('plain text');
    expect(asError({ code: 7 }).message).toBe('non-Error thrown: {"code":7}');
    expect(asError(undefined).message).toBe('non-Error thrown: undefined');
  });

  it('asError is the one log shape: plain fields kept, objects (payloads, requests) and secrets left out, the cause alike', () => {
    const refused = Object.assign(new Error(`refused for key ${SECRET}`, { cause: new Error(`socket to ${SECRET} closed`) }), {
      status: 400,
      code: 'BAD',
      request: { headers: { 'x-ls-apikey': SECRET }, body: 'deposit to 0xDEPOSITADDRESS' },
    });
    const { lines, destination } = capture();
    createLogger({ destination }).warn({ err: asError(refused, { secrets: [SECRET] }) }, 'x');
    const logged = (JSON.parse(lines[0]!) as { err: Record<string, unknown> }).err;
    expect(logged).toMatchObject({
      type: 'Error',
      message: 'refused for key [redacted]: socket to [redacted] closed',
      status: 400,
      code: 'BAD',
    });
    expect(logged.request).toBeUndefined();
    expect(lines[0]).not.toContain(SECRET);
    expect(lines[0]).not.toContain('0xDEPOSITADDRESS');
  });

  it('a Telegram error is logged with its name and stack but not the token nor its payload', () => {
    const { lines, destination } = capture();
    const grammy = new GrammyError(
      `Call to 'sendMessage' failed!`,
      { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
      'sendMessage',
      { chat_id: 1, text: 'deposit to 0xDEPOSITADDRESS' },
    );
    const network = new Error(`request to https://api.telegram.org/bot${SECRET}/sendMessage failed`);
    const log = createLogger({ destination });
    log.warn({ err: telegramError(grammy, SECRET) }, 'a');
    log.warn({ err: telegramError(network, SECRET) }, 'b');
    const [a, b] = lines.map((l) => (JSON.parse(l) as { err: { type: string; message: string; stack: string } }).err);
    expect(a!.message).toBe('Telegram sendMessage failed: 400 Bad Request: chat not found');
    expect(a!.stack).toMatch(/^GrammyError: Telegram sendMessage failed: 400 Bad Request: chat not found\n {4}at /);
    expect(b!.stack).toMatch(/^Error: request to https:\/\/api\.telegram\.org\/bot\[redacted\]\/sendMessage failed\n {4}at /);
    expect(lines.join('')).not.toContain(SECRET);
    expect(lines.join('')).not.toContain('0xDEPOSITADDRESS');
  });

  it('a job logger puts the queue, the job id and the given ids on every line', () => {
    const { lines, destination } = capture();
    jobLogger(createLogger({ destination }), { queueName: 'poll', id: 'job-1' }, { swapId: 's-1', chatId: undefined }).info('polled');
    expect(JSON.parse(lines[0]!)).toMatchObject({ queue: 'poll', jobId: 'job-1', swapId: 's-1', msg: 'polled' });
    expect(lines[0]).not.toContain('chatId');
  });
});

describe('readable line format', () => {
  it('writes one line per entry: time, level, message, fields, then the error, with secrets scrubbed', () => {
    const { lines, destination } = capture();
    const log = createLogger({ destination, format: 'line', secrets: ['sk_live_abcdef'] });
    log.warn({ swapId: 's-1', err: new Error('refused sk_live_abcdef\nsecond line') }, 'could not\nload');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d WARN {2}could not load {2}swapId=s-1 {2}\(Error: refused \[redacted\] second line\)\n$/);
  });
});
