import { expect } from 'vitest';
import type { Redis } from 'ioredis';
import { createCore } from '../../../src/bot/create-core.js';
import type { BotCore } from '../../../src/bot/core.js';
import type { ChatKind, Incoming } from '../../../src/contracts/incoming.js';
import { replyButtons, replyText, type Button, type Reply } from '../../../src/contracts/reply.js';
import { CatalogCache } from '../../../src/layerswap/catalog-cache.js';
import { LayerswapClient } from '../../../src/layerswap/client.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import { ManualClock, type SandboxServer, type SandboxTimings } from '../../../src/sandbox/types.js';
import { testRedis, uniquePrefix } from '../../support/redis.js';
import { setUp } from '../../support/set-up.js';
import { MemoryTracking } from './memory-tracking.js';
import { startShapeProxy, type ShapeProxy } from './shape-proxy.js';
import { WAIT_MS } from '../../support/wait.js';

/**
 * Handler tests as conversations: a real sandbox (manual clock, no automatic deposits), real Redis
 * under a unique prefix, the real client and catalogue, and the core. A ChatUser says things and
 * presses buttons; `card` finds the reply that matches and checks its buttons.
 */
export interface Harness {
  sandbox: SandboxServer;
  clock: ManualClock;
  core: BotCore;
  redis: Redis;
  prefix: string;
  tracking: MemoryTracking;
  api: LayerswapClient;
  /** With `reshape: true`: the proxy between the client and the sandbox. */
  proxy?: ShapeProxy;
  close(): Promise<void>;
}

export async function startHarness(
  opts: { commandsPerMinute?: number; timings?: Partial<SandboxTimings>; chatLimit?: number; reshape?: boolean } = {},
): Promise<Harness> {
  const clock = new ManualClock();
  const sandbox = await startSandbox({ clock, timings: { depositDelayMs: 'off', ...opts.timings } });
  const prefix = uniquePrefix('bot');
  const redis = testRedis(prefix);
  const proxy = opts.reshape ? await startShapeProxy(sandbox.url) : undefined;
  const api = new LayerswapClient({ baseUrl: proxy?.url ?? sandbox.url, apiKey: sandbox.apiKey, timeoutMs: WAIT_MS, maxRetries: 0 });
  const catalog = new CatalogCache(api, { ttlMs: 60_000, now: () => clock.now() });
  const tracking = new MemoryTracking(opts.chatLimit);
  const core = createCore({
    api,
    catalog,
    redis,
    keyPrefix: prefix,
    tracking,
    limits: { commandsPerMinute: opts.commandsPerMinute ?? 1000, draftTtlSeconds: 600 },
    now: () => clock.now(),
  });
  let closed = false;
  return {
    sandbox,
    clock,
    core,
    redis,
    prefix,
    tracking,
    api,
    ...(proxy ? { proxy } : {}),
    close: async () => {
      if (closed) return;
      closed = true;
      await proxy?.close();
      await sandbox.close();
    },
  };
}

/** One harness for a test file: started before its tests, closed after them. */
export const useHarness = (opts: Parameters<typeof startHarness>[0] = {}): Harness => setUp(() => startHarness(opts));

export class ChatUser {
  last: Reply[] = [];
  private messageCount = 0;
  constructor(
    /** Only the core is used: any stack with one (test/bot/notifications uses the real tracking). */
    private readonly h: Pick<Harness, 'core'>,
    readonly who: { userId: string; userName?: string; chatId?: string; chatKind?: ChatKind; admin?: boolean } = { userId: 'u1' },
  ) {}

  private incoming(extra: Partial<Incoming>): Incoming {
    const chatKind = this.who.chatKind ?? 'private';
    return {
      platform: 'console',
      userId: this.who.userId,
      userName: this.who.userName ?? 'Tester',
      chatId: this.who.chatId ?? this.who.userId,
      chatKind,
      isChatAdmin: async () => this.who.admin === true,
      ...extra,
    };
  }

  async says(text: string): Promise<Reply[]> {
    this.last = await this.h.core.handle(this.incoming({ text }));
    return this.last;
  }

  /** Presses the action button with this label (first match, in the last replies unless given). */
  async presses(label: string | RegExp, from: Reply[] = this.last): Promise<Reply[]> {
    const button = findButton(from, label);
    if (button.kind !== 'action') throw new Error(`button ${String(label)} is a ${button.kind} button`);
    this.messageCount++;
    this.last = await this.h.core.handle(
      this.incoming({
        action: button.action,
        messageRef: { platform: 'console', chatId: this.who.chatId ?? this.who.userId, messageId: String(this.messageCount) },
      }),
    );
    return this.last;
  }

  /**
   * Completes the wizard from one line to the confirmation card, as a user in a hurry would: the
   * address, the refund address (skipped unless given), and no refuel when it is offered.
   */
  async toConfirmation(line: string, address: string, refund?: string): Promise<Reply[]> {
    await this.says(line);
    card(await this.says(address), { contains: ['refunds', 'no automatic refund'], buttons: ['Skip (no refund address)'] });
    const next = refund ? await this.says(refund) : await this.presses('Skip (no refund address)');
    return next.some((r) => replyButtons(r).some((b) => b.label === 'No refuel')) ? this.presses('No refuel') : next;
  }

  /** A swap from one line to its deposit card: the wizard completed and confirmed. */
  async createsSwap(line: string, address: string, refund?: string): Promise<{ id: string; deposit: Reply[] }> {
    await this.toConfirmation(line, address, refund);
    const deposit = await this.presses('Confirm');
    const id = /Swap id: ([0-9a-f-]{36})/.exec(allText(deposit))?.[1];
    if (!id) throw new Error(`no swap id in:\n${allText(deposit)}`);
    return { id, deposit };
  }

  /** Sends a raw action string (forged or stale buttons). */
  async sendsAction(action: string): Promise<Reply[]> {
    this.last = await this.h.core.handle(this.incoming({ action }));
    return this.last;
  }
}

export function findButton(replies: Reply[], label: string | RegExp): Button {
  const all = replies.flatMap(replyButtons);
  const b = all.find((x) => (typeof label === 'string' ? x.label === label : label.test(x.label)));
  if (!b)
    throw new Error(
      `no button ${String(label)}; buttons: ${all.map((x) => x.label).join(', ')}\n${replies.map(replyText).join('\n---\n')}`,
    );
  return b;
}

export const allText = (replies: Reply[]): string => replies.map(replyText).join('\n---\n');

/**
 * The reply whose title matches, checked to contain every text and to carry these buttons
 * (labels, in order within the reply, other buttons allowed).
 */
export function card(
  replies: Reply[],
  match: { title?: string | RegExp; contains?: Array<string | RegExp>; buttons?: string[]; target?: Reply['target'] },
): Reply {
  const found = replies.find(
    (r) =>
      match.title === undefined || (typeof match.title === 'string' ? r.title?.includes(match.title) : match.title.test(r.title ?? '')),
  );
  expect(found, `no reply titled ${String(match.title)} in:\n${allText(replies)}`).toBeDefined();
  const r = found as Reply;
  const text = replyText(r);
  for (const c of match.contains ?? []) {
    if (typeof c === 'string') expect(text).toContain(c);
    else expect(text).toMatch(c);
  }
  if (match.buttons) {
    const labels = replyButtons(r).map((b) => b.label);
    expect(labels).toEqual(expect.arrayContaining(match.buttons));
  }
  if (match.target) expect(r.target).toBe(match.target);
  return r;
}
