import type { Redis } from 'ioredis';

const FIXED = /^bull:[\w-]+:(meta|events|limiter|id|stalled-check|marker)$|^trk:(platform:\{\}:pace|outage)$/;

/**
 * Redis bytes per followed swap: MEMORY USAGE of every key under the deployment's prefix (the
 * engine's keys and BullMQ's), divided by the number of swaps followed. Keys whose size does not
 * grow with the number of swaps (queue metadata, the capped event streams, limiters, the
 * one-second platform send windows) are reported apart as `fixed`, in bytes for the deployment.
 */
export async function bytesPerSwap(
  redis: Redis,
  prefix: string,
  swaps: number,
): Promise<{ perSwap: number; fixed: number; byKind: Record<string, number> }> {
  let cursor = '0';
  let total = 0;
  let fixed = 0;
  const byKind: Record<string, number> = {};
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    const pipe = redis.pipeline();
    for (const k of found) pipe.call('MEMORY', 'USAGE', k, 'SAMPLES', '0');
    const res = (await pipe.exec()) ?? [];
    for (const [i, k] of found.entries()) {
      const bytes = Number(res[i]?.[1] ?? 0);
      // "trk:{…}" -> "trk:{}", "{poll}:poll:<job>" -> "bull:poll:job", ...
      const kind = k
        .slice(prefix.length + 1)
        .replace(/\{[^}]*\}/, (m) => (/^\{(poll|notify-[a-z]+)\}$/.test(m) ? 'bull' : '{}'))
        .replace(/:swap-[0-9a-f-]{36}$/, ':job');
      if (FIXED.test(kind)) fixed += bytes;
      else {
        total += bytes;
        byKind[kind] = (byKind[kind] ?? 0) + bytes;
      }
    }
  } while (cursor !== '0');
  for (const k of Object.keys(byKind)) byKind[k] = Math.round((byKind[k] ?? 0) / swaps);
  return { perSwap: total / swaps, fixed, byKind };
}
