import { PassThrough } from 'node:stream';
import { vi } from 'vitest';
import { startConsoleChat } from '../../src/platforms/console/adapter.js';
import type { Harness } from '../bot/support/conversation.js';
import { WAIT_MS } from '../support/wait.js';

export interface PipeChatOptions {
  isTTY?: boolean;
  userId?: string;
  /** The user's language tag, as --lang or LANG gives it. */
  locale?: string;
}

/** A console chat over pipes, with a way to wait until some output has appeared. */
export function startPipeChat(h: Pick<Harness, 'core'>, opts: PipeChatOptions = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (d: Buffer) => {
    text += d.toString();
  });
  let ended = false;
  const userId = opts.userId ?? `con-${Math.random()}`;
  const chat = startConsoleChat({
    core: h.core,
    input,
    output,
    userId,
    isTTY: opts.isTTY,
    ...(opts.locale ? { locale: opts.locale } : {}),
    onEnd: () => {
      ended = true;
    },
  });
  /** The number printed beside the last button with this label ("#7" while a question was open). */
  const numberOf = (label: string): string => {
    const all = [...text.matchAll(new RegExp(`\\[(#?\\d+)\\] ${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=  |\\n|$)`, 'g'))];
    const n = all.at(-1)?.[1];
    if (!n) throw new Error(`no button ${label} in:\n${text}`);
    return n;
  };
  /** Waits until the output after `from` contains the pattern; returns that output. */
  const waitFor = (pattern: string | RegExp, from = 0): Promise<string> =>
    vi.waitFor(
      () => {
        const tail = text.slice(from);
        if (typeof pattern === 'string' ? tail.includes(pattern) : pattern.test(tail)) return tail;
        throw new Error(`timed out waiting for ${String(pattern)}; output:\n${text}`);
      },
      { timeout: WAIT_MS, interval: 20 },
    );
  /** Does `act`, then waits for the pattern in what is printed after it; returns that output. */
  const step = (act: () => unknown, until: string | RegExp): Promise<string> => {
    const at = text.length;
    act();
    return waitFor(until, at);
  };
  return {
    chat,
    userId,
    numberOf,
    type: (line: string) => input.write(`${line}\n`),
    /** Types the number of the last button with this label, as a user reading the screen would. */
    press: (label: string) => input.write(`${numberOf(label)}\n`),
    end: () => input.end(),
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    waitFor,
    /** Types a line, then waits for the pattern in the answer. */
    says: (line: string, until: string | RegExp) => step(() => input.write(`${line}\n`), until),
    /** Presses the last button with this label, then waits for the pattern in the answer. */
    presses: (label: string, until: string | RegExp) => step(() => input.write(`${numberOf(label)}\n`), until),
  };
}
