import { randomUUID } from 'node:crypto';
import { Webhook } from 'svix';
import type { SwapRecord } from './lifecycle.js';
import type { SwapStore } from './swaps.js';
import type { SandboxWebhookOptions } from './types.js';

/**
 * Status-change notifications, signed the way Svix signs Layerswap's (svix-id, svix-timestamp,
 * svix-signature over "id.timestamp.body" with the whsec_ secret). Lifecycles are computed from the
 * clock, so a watcher looks at unfinished swaps every pollMs (real time) and sends one message per
 * status change it sees. Deliveries run apart from the lifecycle: a slow or failing receiver only
 * delays its own retries (attempts, doubling delay), never an answer of the sandbox.
 */

const FINAL = new Set(['completed', 'failed', 'expired', 'cancelled', 'refunded']);

export class WebhookSender {
  private readonly signer: Webhook;
  private readonly seen = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  private readonly pending = new Set<Promise<void>>();
  private closed = false;
  readonly stats = { attempted: 0, delivered: 0, failed: 0 };

  constructor(
    private readonly options: SandboxWebhookOptions,
    private readonly store: SwapStore,
  ) {
    if (!/^https?:\/\//.test(options.url)) throw new Error('sandbox: webhook.url must be an http(s) URL');
    if (!/^whsec_[A-Za-z0-9+/=]{8,}$/.test(options.secret)) {
      throw new Error('sandbox: webhook.secret must be a Svix secret: whsec_ followed by base64');
    }
    this.signer = new Webhook(options.secret);
    this.timer = setInterval(() => this.scan(), options.pollMs ?? 200);
    this.timer.unref();
  }

  /** Looks for status changes now (also run on a timer). */
  scan(): void {
    if (this.closed) return;
    for (const rec of this.store.all()) {
      const last = this.seen.get(rec.id);
      if (last !== undefined && FINAL.has(last) && !rec.pinned) continue;
      const status = this.store.statusOf(rec);
      if (status === last) continue;
      this.seen.set(rec.id, status);
      this.track(this.deliver(rec));
    }
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private async deliver(rec: SwapRecord): Promise<void> {
    const body = JSON.stringify(this.store.webhookPayload(rec));
    const msgId = `msg_${randomUUID().replace(/-/g, '')}`;
    const attempts = Math.max(1, this.options.attempts ?? 4);
    let delay = this.options.retryDelayMs ?? 500;
    for (let i = 0; i < attempts && !this.closed; i++) {
      this.stats.attempted++;
      // Each attempt is signed afresh (new timestamp), as Svix does on retries.
      const now = new Date();
      const headers = {
        'content-type': 'application/json',
        'svix-id': msgId,
        'svix-timestamp': String(Math.floor(now.getTime() / 1000)),
        'svix-signature': this.signer.sign(msgId, now, body),
      };
      try {
        const res = await fetch(this.options.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) {
          this.stats.delivered++;
          return;
        }
      } catch {
        // unreachable receiver: retried below
      }
      if (i < attempts - 1) await new Promise((r) => setTimeout(r, delay).unref());
      delay *= 2;
    }
    this.stats.failed++;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.pending]);
  }
}
