import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/log.js';

/** A debug-level logger whose lines (one per entry, as written) tests can read; `secrets` are scrubbed as in production. */
export function memoryLogger(secrets: readonly string[] = []): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { logger: createLogger({ level: 'debug', secrets, destination }), lines };
}
