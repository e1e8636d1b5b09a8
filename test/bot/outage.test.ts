import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createCore } from '../../src/bot/create-core.js';
import { replyText } from '../../src/contracts/reply.js';
import { createLogger } from '../../src/log.js';
import type { Network } from '../../src/layerswap/schemas.js';
import { testRedis, uniquePrefix } from '../support/redis.js';
import { allText, card, ChatUser, startHarness, useHarness } from './support/conversation.js';
import { MemoryTracking } from './support/memory-tracking.js';

const h = useHarness();

describe('when the swap service fails', () => {
  test('a 500 says the service is not answering, never a stack trace', async () => {
    const u = new ChatUser(h, { userId: 'o1' });
    await u.says('/networks'); // warm the catalogue, as a running bot has it
    h.sandbox.injectFault({ status: 500, count: 1, pathPrefix: '/api/v2/quote' });
    const text = allText(await u.says('/quote 100 USDC arbitrum base'));
    expect(text).toContain('The swap service is not answering, try again in a minute.');
    expect(text).not.toMatch(/at \w+ \(|Error:|\/api\/v2/);
  });

  test('a proxy answering HTML (502) reads the same way', async () => {
    const u = new ChatUser(h, { userId: 'o2' });
    h.sandbox.injectFault({ status: 502, count: 1, pathPrefix: '/api/v2/swaps/' });
    card(await u.says('/status 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b'), { contains: ['not answering'] });
  });

  test('a 429 says when to try again', async () => {
    const u = new ChatUser(h, { userId: 'o3' });
    h.sandbox.injectFault({ status: 429, count: 1, retryAfterSeconds: 7, pathPrefix: '/api/v2/quote' });
    card(await u.says('/quote 100 USDC arbitrum base'), { title: 'The swap service is busy', contains: ['Try again in 7 seconds'] });
  });

  test('mid-swap, a failure keeps the draft and Try again continues', async () => {
    const u = new ChatUser(h, { userId: 'o4' });
    h.sandbox.injectFault({ status: 503, count: 1, pathPrefix: '/api/v2/quote' });
    card(await u.says('/swap 100 USDC arbitrum base'), { contains: ['not answering'], buttons: ['Try again', 'Cancel'] });
    card(await u.presses('Try again'), { contains: ['So far: 100 USDC on Arbitrum One → USDC on Base', 'address on Base'] });
  });

  test('a failure at the confirmation keeps every answer; Try again shows the confirmation', async () => {
    const u = new ChatUser(h, { userId: 'o6' });
    await u.says('/swap 100 USDC arbitrum base');
    await u.says('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
    await u.presses('Skip (no refund address)');
    h.sandbox.injectFault({ status: 500, count: 1, pathPrefix: '/api/v2/quote' });
    card(await u.presses('No refuel'), { contains: ['not answering'], buttons: ['Try again'] });
    card(await u.presses('Try again'), { title: 'Confirm your swap', contains: ['Refuel: no', 'Refund address: none'] });
  });

  test('with the service gone, every command still answers politely', async () => {
    const h2 = await startHarness();
    const u = new ChatUser(h2, { userId: 'o5' });
    await h2.close();
    for (const cmd of ['/quote 100 USDC arbitrum base', '/networks', '/status 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b', '/swap']) {
      card(await u.says(cmd), { title: 'Service unavailable', contains: ['The swap service is not answering, try again in a minute.'] });
    }
  });
});

describe('limits', () => {
  test('the command rate limit says how long to wait, and lifts after that', async () => {
    const h2 = await startHarness({ commandsPerMinute: 3 });
    try {
      const u = new ChatUser(h2, { userId: 'r1' });
      for (let i = 0; i < 3; i++) card(await u.says('/help'), { title: 'What I can do' });
      const limited = card(await u.says('/help'), { title: 'Slow down a little', contains: ['Please wait 20 seconds and try again.'] });
      expect(limited.target).toBe('ephemeral');
      // Another user is not affected.
      card(await new ChatUser(h2, { userId: 'r2' }).says('/help'), { title: 'What I can do' });
      h2.clock.advance(20_000);
      card(await u.says('/help'), { title: 'What I can do' });
      // Ordinary group chatter is neither answered nor counted.
      const g = new ChatUser(h2, { userId: 'r3', chatId: 'busy-group', chatKind: 'group' });
      for (let i = 0; i < 10; i++) expect(await g.says(`just chatting ${i}`)).toEqual([]);
      card(await g.says('/help'), { title: 'What I can do' });
    } finally {
      await h2.close();
    }
  });
});

describe('a bug in a handler', () => {
  test('is logged without user text or secrets, and the user gets a polite reply', async () => {
    const prefix = uniquePrefix('bug');
    const redis = testRedis(prefix);
    const out = new PassThrough();
    const logged: string[] = [];
    out.on('data', (d: Buffer) => logged.push(d.toString()));
    const secret = 'sk-live-very-secret-key';
    const core = createCore({
      api: h.api,
      catalog: {
        networks: () => Promise.reject(new TypeError(`cannot read things (key ${secret})`)),
        destinations: () => Promise.resolve([]),
        peekNetworks: (): Network[] | undefined => undefined,
        limits: () => Promise.resolve(undefined),
        exchanges: () => Promise.resolve([]),
        exchangeNetworks: () => Promise.resolve(undefined),
        peekExchanges: () => undefined,
      },
      redis,
      keyPrefix: prefix,
      tracking: new MemoryTracking(),
      limits: { commandsPerMinute: 100, draftTtlSeconds: 60 },
      logger: createLogger({ destination: out, secrets: [secret] }),
    });
    const replies = await core.handle({
      platform: 'console',
      userId: 'x',
      userName: 'X',
      chatId: 'x',
      chatKind: 'private',
      text: '/quote 100 MYSECRETWORD arbitrum base',
    });
    expect(replies.map(replyText).join('\n')).toContain('Sorry, that did not work on our side');
    expect(replies.map(replyText).join('\n')).not.toContain('TypeError');
    await new Promise((r) => setImmediate(r));
    const log = logged.join('');
    expect(log).toContain('handler failed');
    expect(log).toContain('"command":"quote"');
    expect(log).not.toContain('MYSECRETWORD');
    expect(log).not.toContain(secret);
  });

  test('garbage incoming is ignored, not thrown', async () => {
    // @ts-expect-error: deliberately not an Incoming
    expect(await h.core.handle({ platform: 'fax', userId: '' })).toEqual([]);
  });
});
