import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ActionCodec, decodeInline, encodeInline, MAX_ACTION_BYTES, utf8Length } from '../../src/bot/kernel/actions.js';
import { testRedis, uniquePrefix } from '../support/redis.js';

const prefix = uniquePrefix('actions');
const redis = testRedis(prefix);
const codec = new ActionCodec(redis, prefix, 60);

const verb = fc.stringMatching(/^[a-z]{1,6}$/);
const anyArgs = fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 6 });

describe('action codec (property)', () => {
  test.prop([verb, anyArgs])('inline encoding round-trips whenever it is used, and is at most 64 bytes', (v, args) => {
    const s = encodeInline({ verb: v, args });
    if (s === undefined) return;
    expect(utf8Length(s)).toBeLessThanOrEqual(MAX_ACTION_BYTES);
    expect(decodeInline(s)).toEqual({ verb: v, args });
  });

  test.prop([verb, anyArgs], { numRuns: 60 })(
    'any unicode arguments: at most 64 bytes on the wire and the same action back',
    async (v, args) => {
      const s = await codec.encode({ verb: v, args });
      expect(utf8Length(s)).toBeLessThanOrEqual(MAX_ACTION_BYTES);
      expect(s.length).toBeGreaterThan(0);
      expect(await codec.decode(s)).toEqual({ ok: true, action: { verb: v, args } });
    },
  );

  test.prop([fc.string({ unit: 'binary', maxLength: 120 })])(
    'garbage never throws: it decodes to a failure or to some action',
    async (s) => {
      const d = await codec.decode(s);
      if (d.ok) expect(d.action.verb).toMatch(/^[a-z]{1,6}$/);
    },
  );
});

describe('action codec (examples)', () => {
  test('short actions stay inline and readable', async () => {
    expect(await codec.encode({ verb: 'st', args: ['3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b'] })).toBe(
      'st:3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b',
    );
    expect(await codec.encode({ verb: 'pk', args: ['abc:def', '100%'] })).toBe('pk:abc%3Adef:100%25');
  });

  test('long ones are stashed in Redis under a short id and expire', async () => {
    const s = await codec.encode({ verb: 'qs', args: ['123456.123456', 'IMMUTABLEZK_MAINNET', 'USDC', 'ARBITRUMNOVA_MAINNET', 'USDC.e'] });
    expect(s).toMatch(/^~[A-Za-z0-9_-]{12}$/);
    expect(await redis.ttl(`${prefix}:action:${s.slice(1)}`)).toBeGreaterThan(0);
    await redis.del(`${prefix}:action:${s.slice(1)}`);
    expect(await codec.decode(s)).toEqual({ ok: false });
  });

  test('forged and garbled strings fail cleanly', async () => {
    for (const s of ['', 'BAD', '1:2', 'st:%Z1', '~short', '~AAAAAAAAAAAA', 'x'.repeat(65), null, 42])
      expect(await codec.decode(s)).toEqual({ ok: false });
    await redis.set(`${prefix}:action:BBBBBBBBBBBB`, '{"verb":"Hack","args":[1]}');
    expect(await codec.decode('~BBBBBBBBBBBB')).toEqual({ ok: false });
    await redis.set(`${prefix}:action:CCCCCCCCCCCC`, 'not json');
    expect(await codec.decode('~CCCCCCCCCCCC')).toEqual({ ok: false });
  });
});
