import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatTarget, MessageRef } from '../../../src/contracts/incoming.js';
import type { Reply } from '../../../src/contracts/reply.js';
import type { Recorded } from './recording-messenger.js';

/**
 * A tiny local "platform" over HTTP, so a worker in a child process and the test share one record
 * of what was delivered. It also serves the test's sandbox clock (GET /clock) to the child, and
 * can kill the child at the moment a delivery arrives: that request is then never answered nor
 * recorded, as if the crash happened just before the platform received it.
 */

export class DeliverySink {
  readonly log: Recorded[] = [];
  private server: http.Server | undefined;
  private next = 1;
  private killAt: { remaining: number; kill: () => void } | undefined;
  /** Idempotency key -> the message it created (a repeated key gets that message, nothing new). */
  private readonly keys = new Map<string, string>();
  /** Deliveries cut short by a kill. */
  killed = 0;
  /** Sends answered with an earlier message because their idempotency key was seen before. */
  deduplicated = 0;

  constructor(private readonly clock: () => number) {}

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Kills the worker when the nth delivery from now arrives. */
  killOnDelivery(nth: number, kill: () => void): void {
    this.killAt = { remaining: nth, kill };
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (req.method === 'GET' && req.url === '/clock') {
      res.end(String(this.clock()));
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (this.killAt && --this.killAt.remaining === 0) {
        const { kill } = this.killAt;
        this.killAt = undefined;
        this.killed++;
        kill();
        req.socket.destroy();
        return;
      }
      const msg = JSON.parse(body) as { target?: ChatTarget; ref?: MessageRef; reply: Reply; key?: string };
      const op = req.url === '/edit' ? 'edit' : 'send';
      const platform = (msg.target ?? msg.ref)?.platform ?? 'console';
      const chatId = (msg.target ?? msg.ref)?.chatId ?? '';
      const known = op === 'send' && msg.key ? this.keys.get(`${chatId}/${msg.key}`) : undefined;
      const messageId = op === 'edit' ? (msg.ref?.messageId ?? '') : (known ?? String(this.next++));
      if (known) this.deduplicated++;
      else this.log.push({ op, platform, chatId, messageId, reply: msg.reply, at: Date.now() });
      if (op === 'send' && msg.key) this.keys.set(`${chatId}/${msg.key}`, messageId);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ platform, chatId, messageId }));
    });
  }

  forChat(chatId: string): Recorded[] {
    return this.log.filter((r) => r.chatId === chatId);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }
}
