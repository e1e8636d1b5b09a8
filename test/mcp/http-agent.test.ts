import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpWorld, startReceiver, call, signedBy } from './support.js';
import { waitFor } from '../support/wait.js';

/**
 * The MCP server over Streamable HTTP (/mcp on the web process) with the SDK's own Client, the
 * sandbox over real sockets, real Redis and the tracking workers: an agent quotes, creates, and is
 * told "deposit seen" and "completed" by push (subscriptions/listen), never polling get_swap; its
 * webhook gets each moment once, signed, through a web restart and through a restart of the
 * worker's webhook sender while a delivery waits for its retry; caps refuse and ask for approval;
 * one key never sees another's swaps.
 */
const DEST = '0x1111111111111111111111111111111111111111';
const REFUND = '0x2222222222222222222222222222222222222222';
const ROUTE = { amount: '100', from_network: 'arbitrum', from_token: 'usdc', to_network: 'base', to_token: 'USDC' };

let world: Awaited<ReturnType<typeof startMcpWorld>>;
beforeAll(async () => {
  world = await startMcpWorld();
});
afterAll(() => world?.close());

describe('/mcp over Streamable HTTP', () => {
  it('refuses a request without a valid bearer key, saying how to get one', async () => {
    const res = await fetch(`http://127.0.0.1:${world.port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('swapbot mcp-key create');
    const bad = await fetch(`http://127.0.0.1:${world.port}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer sbk_nope' },
      body: '{}',
    });
    expect(bad.status).toBe(401);
  });

  it('finds networks fuzzily, answers did-you-mean, and validates arguments with a specific message', async () => {
    const { secret } = await world.keys.create('finder', {});
    const c = await world.connect(secret);
    const tools = (await c.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual([
      'create_swap',
      'find_network',
      'find_swap',
      'find_token',
      'follow_swap',
      'get_approval',
      'get_swap',
      'quote',
      'register_webhook',
      'routes',
      'watch_address',
    ]);
    const arb = await call(c, 'find_network', { query: 'arbitrum' });
    expect(arb.data).toMatchObject({ name: 'ARBITRUM_MAINNET' });
    const typo = await call(c, 'quote', { ...ROUTE, to_network: 'bsae' });
    expect(typo.isError).toBe(true);
    expect(typo.data.field).toBe('destination_network');
    expect(typo.data.did_you_mean).toContain('BASE_MAINNET');
    const token = await call(c, 'find_token', { network: 'base', query: 'usdc' });
    expect(token.data).toMatchObject({ symbol: 'USDC', network: 'BASE_MAINNET' });
    const routes = await call(c, 'routes', { from_network: 'arbitrum', from_token: 'USDC', to_network: 'base', to_token: 'USDC' });
    expect(routes.data.destinations).toEqual([{ network: 'BASE_MAINNET', tokens: expect.arrayContaining(['USDC']) }]);
    const noRefund = await c.callTool({ name: 'create_swap', arguments: { ...ROUTE, destination_address: DEST } });
    expect(noRefund.isError).toBe(true);
    expect(JSON.stringify(noRefund.content)).toContain('refund_address (recommended) or no_refund_address: true');
    const badAddress = await call(c, 'create_swap', { ...ROUTE, destination_address: '0x12', refund_address: REFUND });
    expect(badAddress.data).toMatchObject({ field: 'destination_address' });
  });

  it('an agent loop: quote, create, then deposit seen and completed arrive by push; the webhook gets each moment once, signed, across a web restart', async () => {
    const receiver = await startReceiver();
    try {
      const { secret } = await world.keys.create('loop', {});
      let c = await world.connect(secret);
      const hook = await call(c, 'register_webhook', { url: receiver.url });
      const signing = hook.data.signing_secret as string;
      expect(signing).toMatch(/^whsec_/);

      const quote = await call(c, 'quote', ROUTE);
      const money = quote.data.money as {
        asked: { amount: string; base_units: string };
        expected: { amount: string };
        deductions: unknown[];
      };
      expect(money.asked).toMatchObject({ amount: '100', base_units: '100000000' });
      expect(money.deductions.length).toBeGreaterThan(0);

      const created = await call(c, 'create_swap', { ...ROUTE, destination_address: DEST, refund_address: REFUND });
      expect(created.isError).toBe(false);
      const swapId = created.data.swap_id as string;
      const deposit = created.data.deposit as {
        kind: string;
        send: { amount: string; base_units: string };
        to_address: string;
        payment_uri: string;
      };
      expect(deposit.kind).toBe('manual');
      expect(deposit.send.amount).toBe('100');
      expect(deposit.payment_uri).toContain(deposit.to_address);
      expect(created.data.handoff).toMatchObject({ url: expect.stringMatching(/^https:\/\/t\.me\/swapbot_test_bot\?start=ag_/) });
      expect(created.data.deposit_deadline).toEqual(expect.any(String));

      const pushed: Array<{ uri: string; moment?: string; final?: boolean }> = [];
      c.setNotificationHandler('notifications/resources/updated', (n) => {
        const meta = (n.params._meta ?? {}) as Record<string, { moment: string; final: boolean } | undefined>;
        pushed.push({ uri: n.params.uri, moment: meta['swapbot/moment']?.moment, final: meta['swapbot/moment']?.final });
      });
      await c.listen({ resourceSubscriptions: [`swap://${swapId}`] });

      world.h.sandbox.deposit(swapId);
      world.h.clock.advance(1_000);
      await world.h.tracking.service.pollNow(swapId);
      await waitFor(() => pushed.some((p) => p.moment === 'deposit_seen'), 'deposit seen pushed');

      // The web process restarts mid-swap: the agent listens again; the webhook queue lives in Redis.
      await world.restartWeb();
      c = await world.connect(secret);
      const after: typeof pushed = [];
      c.setNotificationHandler('notifications/resources/updated', (n) => {
        const meta = (n.params._meta ?? {}) as Record<string, { moment: string; final: boolean } | undefined>;
        after.push({ uri: n.params.uri, moment: meta['swapbot/moment']?.moment, final: meta['swapbot/moment']?.final });
      });
      await c.listen({ resourceSubscriptions: [`swap://${swapId}`] });
      await world.h.settleUntilCompleted(swapId, 20);
      const done = await waitFor(() => after.find((p) => p.moment === 'completed'), 'completed pushed');
      expect(done).toMatchObject({ uri: `swap://${swapId}`, final: true });
      // The agent called no tool between create_swap and here: both moments came by push alone.

      const got = await waitFor(() => {
        const moments = receiver.got.map((r) => (JSON.parse(r.body) as { moment: string }).moment);
        return moments.includes('completed') && receiver.got;
      }, 'webhook completed');
      const ids = got.map((r) => r.headers['x-swapbot-event-id']);
      expect(new Set(ids).size).toBe(ids.length);
      const moments = got.map((r) => (JSON.parse(r.body) as { moment: string }).moment);
      expect(moments).toEqual(expect.arrayContaining(['deposit_seen', 'completed']));
      expect(new Set(moments).size).toBe(moments.length);
      for (const r of got) expect(signedBy(signing, r)).toBe(true);

      const view = await call(c, 'get_swap', { swap_id: swapId });
      expect(view.data).toMatchObject({ phase: 'delivered', final: true, stuck: false });
      const settled = view.data.money as { next_step: string; deposited: { tx: string }; received: { amount: string } };
      expect(settled.next_step).toBe('nothing');
      // Found again by its deposit transaction and by its address; only this key's addresses can be watched.
      expect((await call(c, 'find_swap', { query: settled.deposited.tx })).data).toMatchObject({ count: 1 });
      expect((await call(c, 'find_swap', { query: DEST })).data.count).toBeGreaterThanOrEqual(1);
      expect((await call(c, 'watch_address', { address: DEST })).data).toMatchObject({ watching: true });
      expect(await call(c, 'watch_address', { address: '0x3333333333333333333333333333333333333333' })).toMatchObject({
        isError: true,
        data: { error: 'not_your_address' },
      });
    } finally {
      await receiver.close();
    }
  });

  it('the worker that sends webhooks restarts while a delivery waits for its retry: the receiver accepts each moment exactly once, signed', async () => {
    // The receiver is down for the first try of "deposit seen" (503): that job waits in Redis for
    // its retry while the worker process's agent delivery stops and a new one starts.
    const receiver = await startReceiver({ failFirst: (body) => body.includes('"moment":"deposit_seen"') });
    try {
      const { secret } = await world.keys.create('sender-restart', {});
      const c = await world.connect(secret);
      const signing = (await call(c, 'register_webhook', { url: receiver.url })).data.signing_secret as string;
      const swapId = (await call(c, 'create_swap', { ...ROUTE, destination_address: DEST, refund_address: REFUND })).data.swap_id as string;

      world.h.sandbox.deposit(swapId);
      world.h.clock.advance(1_000);
      await world.h.tracking.service.pollNow(swapId);
      const refused = await waitFor(() => receiver.got.find((r) => r.status === 503), 'deposit seen refused once');
      await world.restartDelivery();
      await world.h.settleUntilCompleted(swapId, 20);

      const moment = (r: { body: string }) => (JSON.parse(r.body) as { moment: string; swap_id?: string }).moment;
      const accepted = await waitFor(() => {
        const ok = receiver.got.filter((r) => r.status === 200);
        return ok.some((r) => moment(r) === 'completed') && ok.some((r) => moment(r) === 'deposit_seen') && ok;
      }, 'deposit seen retried by the new sender, and completed');
      const ids = accepted.map((r) => String(r.headers['x-swapbot-event-id']));
      expect(new Set(ids).size).toBe(ids.length);
      const moments = accepted.map(moment);
      expect(new Set(moments).size).toBe(moments.length);
      // The retry is the same event (same id, same body), not a second one.
      const seen = accepted.find((r) => moment(r) === 'deposit_seen');
      expect(seen?.headers['x-swapbot-event-id']).toBe(refused.headers['x-swapbot-event-id']);
      expect(seen?.body).toBe(refused.body);
      for (const r of receiver.got) expect(signedBy(signing, r)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('caps: the daily cap refuses naming the cap and how to raise it; above the USD threshold the swap waits for a person', async () => {
    const { key, secret } = await world.keys.create('capped', { maxSwapsPerDay: 1, maxUsdPerSwap: 500 });
    const c = await world.connect(secret);
    const first = await call(c, 'create_swap', { ...ROUTE, destination_address: DEST, no_refund_address: true });
    expect(first.isError).toBe(false);
    const second = await call(c, 'create_swap', { ...ROUTE, destination_address: DEST, no_refund_address: true });
    expect(second).toMatchObject({ isError: true, data: { error: 'cap_reached', cap: 'max_swaps_per_day', limit: 1 } });
    expect(second.data.how_to_raise).toContain('--max-swaps-per-day');
    // Raised as the refusal says (mcp-key set): the same connection may create again at once.
    await world.keys.setCaps(key.id, { maxSwapsPerDay: 2 });
    expect((await call(c, 'create_swap', { ...ROUTE, destination_address: DEST, no_refund_address: true })).isError).toBe(false);

    const big = await call(c, 'create_swap', { ...ROUTE, amount: '1000', destination_address: DEST, refund_address: REFUND });
    expect(big.data).toMatchObject({ outcome: 'needs_approval', cap: 'max_usd_per_swap', limit: 500 });
    const pending = await call(c, 'get_approval', { approval_id: big.data.approval_id });
    expect(pending.data.outcome).toBe('pending');
  });

  it("a key never sees another key's swaps", async () => {
    const a = await world.connect((await world.keys.create('a', {})).secret);
    const b = await world.connect((await world.keys.create('b', {})).secret);
    const created = await call(a, 'create_swap', { ...ROUTE, destination_address: DEST, refund_address: REFUND });
    const id = created.data.swap_id as string;
    expect((await call(a, 'get_swap', { swap_id: id })).data.swap_id).toBe(id);
    expect(await call(b, 'get_swap', { swap_id: id })).toMatchObject({ isError: true, data: { error: 'not_found' } });
    expect(await call(b, 'follow_swap', { swap_id: id })).toMatchObject({ isError: true, data: { error: 'not_found' } });
    expect((await call(b, 'find_swap', { query: id })).data).toMatchObject({ count: 0 });
    expect((await call(b, 'find_swap', { query: DEST })).data).toMatchObject({ count: 0 });
    expect((await call(a, 'find_swap', { query: id })).data).toMatchObject({ count: 1 });
    const read = await b.readResource({ uri: `swap://${id}` });
    expect(JSON.stringify(read.contents)).toContain('not_found');
  });
});
