import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTarget } from '../../src/contracts/incoming.js';
import { createWebhookHandler, extractSwapId } from '../../src/tracking/webhook.js';
import { startHarness, type Harness } from './support/harness.js';
import { waitFor } from '../support/wait.js';

/**
 * Svix-signed swap notifications over real HTTP: forged, stale, malformed and replayed ones are
 * refused; a valid one pulls the swap's poll forward (its next poll was a minute away).
 */

const SECRET = `whsec_${Buffer.from('swapbot-test-webhook-secret-32by').toString('base64')}`;
const chat: ChatTarget = { platform: 'console', chatId: 'c1', chatKind: 'private' };

describe('swap status webhooks', () => {
  let h: Harness;
  let server: http.Server;
  let url: string;
  let swapId: string;
  const hints: string[] = [];

  beforeAll(async () => {
    // A minute between polls: only a webhook can make the next one happen within the test.
    h = await startHarness({ fastMs: 60_000, slowMs: 60_000 });
    await h.startWorkers();
    const handler = createWebhookHandler({
      secret: SECRET,
      onSwapHint: async (id) => {
        hints.push(id);
        await h.tracking.pollNow(id);
      },
      replay: h.tracking.webhookReplayGuard,
    });
    server = http.createServer(handler);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/layerswap`;
    swapId = await h.createSwap();
    await h.tracking.service.follow(swapId, chat, { userId: 'u', creator: true });
    await waitFor(() => h.api.pollsOf(swapId).length === 1, 'the first poll');
    await h.settle([swapId]);
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await h?.close();
  });

  const post = async (body: string, headers: Record<string, string>) => {
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    return { status: res.status, body: (await res.json()) as { ok: boolean; ignored?: string; error?: string } };
  };
  const signed = (id: string, body: string, at = new Date()) => ({
    'svix-id': id,
    'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
    'svix-signature': new Webhook(SECRET).sign(id, at, body),
  });
  const payload = () => JSON.stringify({ swap: { id: swapId, status: 'ls_transfer_pending' } });

  it('refuses a forged signature, a stale timestamp and missing headers, without polling', async () => {
    const body = payload();
    const forged = { ...signed('msg_forged', body), 'svix-signature': `v1,${Buffer.alloc(32, 7).toString('base64')}` };
    expect((await post(body, forged)).status).toBe(401);
    // Signed with another secret
    const other = new Webhook(`whsec_${Buffer.from('another-secret-another-secret-32').toString('base64')}`);
    const now = new Date();
    expect(
      (
        await post(body, {
          'svix-id': 'msg_x',
          'svix-timestamp': String(Math.floor(now.getTime() / 1000)),
          'svix-signature': other.sign('msg_x', now, body),
        })
      ).status,
    ).toBe(401);
    // Correctly signed but 10 minutes old: outside Svix's tolerance
    const stale = await post(body, signed('msg_stale', body, new Date(Date.now() - 10 * 60_000)));
    expect(stale).toMatchObject({ status: 401, body: { ok: false } });
    // Tampered body under a valid signature
    expect((await post(payload().replace('ls_transfer_pending', 'completed'), signed('msg_t', body))).status).toBe(401);
    expect((await post(body, {})).status).toBe(400);
    expect(hints).toEqual([]);
    expect(h.api.pollsOf(swapId)).toHaveLength(1);
  });

  it('polls at once on a valid notification, and ignores its replay', async () => {
    h.clock.advance(1_000);
    h.sandbox.deposit(swapId);
    const body = payload();
    const headers = signed('msg_valid_1', body);
    expect(await post(body, headers)).toEqual({ status: 200, body: { ok: true, swapId } });
    await waitFor(() => h.api.pollsOf(swapId).length === 2, 'a poll pulled forward by the webhook');
    await h.settle([swapId]);
    // The service keeps user_transfer_pending until the deposit is confirmed: the poll saw the deposit.
    expect((await h.tracking.swapState(swapId))?.depositSeenAt).toBeDefined();

    const replay = await post(body, headers);
    expect(replay).toEqual({ status: 200, body: { ok: true, ignored: 'already processed' } });
    expect(hints).toEqual([swapId]);
  });

  it('finds the swap id in the shapes Layerswap may send', () => {
    const id = '3f2c1a9e-8b7d-4c6e-9f01-23456789abcd';
    expect(extractSwapId({ id, status: 'completed' })).toBe(id);
    expect(extractSwapId({ data: { id } })).toBe(id);
    expect(extractSwapId({ swap: { id }, quote: {} })).toBe(id);
    expect(extractSwapId({ data: { swap: { id } } })).toBe(id);
    expect(extractSwapId({ id: 'not-a-uuid' })).toBeUndefined();
    expect(extractSwapId('text')).toBeUndefined();
  });
});
