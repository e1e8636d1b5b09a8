import type { Runtime } from './runtime.js';

/** /health must answer even while Redis hangs: past this it says "not ready". */
const HEALTH_PING_MS = 2_000;

/** /health of web and worker: nothing still waiting to start, and Redis answers a PING in time. Its own module: a worker loads no platform library for it. */
export async function healthy(rt: Runtime, waiting: ReadonlySet<string>): Promise<boolean> {
  if (waiting.size > 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), HEALTH_PING_MS)));
  try {
    return await Promise.race([rt.redis.ping().then((p) => p === 'PONG'), late]);
  } finally {
    clearTimeout(timer);
  }
}
