import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { serve } from './ipc.js';

/**
 * The bare rate: the same GET /api/v2/swaps/{id}?exclude_deposit_actions=true requests the
 * poller makes, from a plain undici loop (keep-alive pool, `concurrency` in flight, body read,
 * nothing parsed or stored), for comparison with the whole tracking pipeline.
 */

let pool: Pool | undefined;

serve(
  {
    async run(args: { url: string; apiKey: string; ids: string[]; concurrency: number; warmupMs: number; durationMs: number }) {
      pool ??= new Pool(args.url, { connections: args.concurrency, pipelining: 1 });
      const p = pool;
      const start = performance.now();
      const measureFrom = start + args.warmupMs;
      const end = measureFrom + args.durationMs;
      let counted = 0;
      let failed = 0;
      let i = 0;
      const loop = async () => {
        for (;;) {
          const t = performance.now();
          if (t >= end) return;
          const id = args.ids[i++ % args.ids.length] as string;
          const res = await p.request({
            method: 'GET',
            path: `/api/v2/swaps/${id}?exclude_deposit_actions=true`,
            headers: { 'x-ls-apikey': args.apiKey },
          });
          await res.body.text();
          if (res.statusCode !== 200) failed++;
          const done = performance.now();
          if (done >= measureFrom && done <= end) counted++;
        }
      };
      await Promise.all(Array.from({ length: args.concurrency }, loop));
      return { requests: counted, seconds: args.durationMs / 1000, failed };
    },
  },
  async () => {
    await pool?.close();
  },
);
