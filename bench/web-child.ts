import { loadConfig } from '../src/config.js';
import { createRuntime, type Runtime } from '../src/app/runtime.js';
import { startWeb } from '../src/app/web.js';
import { createLogger } from '../src/log.js';
import { serve } from './ipc.js';

/**
 * `swapbot web` as an operator runs it, configured by environment variables: here it only
 * receives Layerswap's (the sandbox's) Svix-signed webhooks at POST /webhooks/layerswap and pulls
 * the poll of the swap each one names. Part 5 starts it; not meant to be run alone.
 */

let rt: Runtime | undefined;

serve(
  {
    async start(env: Record<string, string>) {
      const config = loadConfig(env, 'web');
      const logger = createLogger({
        level: process.env.BENCH_LOG_LEVEL ?? 'silent',
        destination: process.stderr,
        secrets: config.secretValues,
      });
      rt = await createRuntime(config, logger, 'web');
      const web = await startWeb(rt, { alwaysServeHttp: true });
      await web.ready;
      return { port: web.port, adapters: web.adapters };
    },
    /** CPU time this process has used (µs): per update, a figure the machine's load moves less than latency. */
    cpu() {
      const u = process.cpuUsage();
      return Promise.resolve({ micros: u.user + u.system });
    },
  },
  async () => {
    await rt?.close();
  },
);
