/**
 * CPU per getSwap call of the API client: the sandbox runs in a child process, so only the
 * client's own work (request, body, parse, validation) is counted here. Not a test: prints figures.
 *
 *   node --import ./test/tracking/support/ts-register.mjs scripts/client-cpu.ts [calls] [concurrency]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { LayerswapClient } from '../src/layerswap/client.js';

const calls = Number(process.argv[2] ?? 5000);
const concurrency = Number(process.argv[3] ?? 20);

// Only the sandbox's own modules load in the child (not the whole CLI).
const entry = "import { runSandboxCli } from './src/sandbox/cli.ts'; await runSandboxCli(['--port', '0']);";
const child = spawn(process.execPath, ['--import', './test/tracking/support/ts-register.mjs', '--input-type=module', '-e', entry], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, SANDBOX_DEPOSIT_DELAY_MS: 'off' },
});
let out = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (d: string) => (out += d));
while (!/listening on (http:\/\/\S+)/.test(out)) await once(child.stdout, 'data');
const baseUrl = /listening on (http:\/\/\S+)/.exec(out)![1]!;

const client = new LayerswapClient({ baseUrl, apiKey: 'sandbox', maxRetries: 0 });
const ids: string[] = [];
for (let i = 0; i < concurrency; i++) {
  const created = await client.createSwap({
    source_network: 'ARBITRUM_MAINNET',
    source_token: 'USDC',
    destination_network: 'BASE_MAINNET',
    destination_token: 'USDC',
    destination_address: `0x${(i + 1).toString(16).padStart(40, 'a')}`,
    amount: 100,
    use_deposit_address: true,
  });
  ids.push(created.swap.id);
}

type Method = 'getSwap' | 'pollSwap';
async function run(method: Method, n: number): Promise<void> {
  let next = 0;
  const one = (id: string) =>
    method === 'pollSwap' && client.pollSwap
      ? client.pollSwap(id, { exclude_deposit_actions: true }, { maxRetries: 0 })
      : client.getSwap(id, { exclude_deposit_actions: true }, { maxRetries: 0 });
  await Promise.all(
    ids.map(async (id) => {
      while (next++ < n) await one(id);
    }),
  );
}

async function measure(method: Method): Promise<void> {
  await run(method, Math.min(1000, calls)); // warm-up: JIT, keep-alive connections
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run(method, calls);
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  const us = (cpu.user + cpu.system) / calls;
  console.log(
    `${method} x${calls} (concurrency ${concurrency}): ${us.toFixed(1)} µs CPU per call (user ${(cpu.user / calls).toFixed(1)}, system ${(cpu.system / calls).toFixed(1)}), ${(calls / (wall / 1000)).toFixed(0)} calls/s`,
  );
}

for (const method of (process.argv[4] ?? 'getSwap,pollSwap').split(',') as Method[]) await measure(method);
await client.close();
child.kill('SIGTERM');
