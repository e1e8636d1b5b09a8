import { startSandbox } from './server.js';
import { SystemClock, type SandboxTimings, type SandboxWebhookOptions } from './types.js';

/**
 * `swapbot sandbox`: the sandbox as a standalone server. Prints one line (URL and a hint about the
 * key, never a key that is not the default), and runs until SIGINT/SIGTERM (or io.signal aborts).
 * The returned promise settles when the server has closed.
 */

const SANDBOX_USAGE =
  'Usage: swapbot sandbox [--port N] [--host H] [--api-key KEY] [--speed X] [--chain [RPC_URL]]\n' +
  '  --port      port to listen on (default 8787; 0 picks a free one)\n' +
  '  --host      interface to bind (default 127.0.0.1)\n' +
  "  --api-key   the X-LS-APIKEY clients must send (default: SANDBOX_API_KEY, else 'sandbox')\n" +
  '  --speed     sandbox seconds per real second (default: SANDBOX_SPEED, else 1)\n' +
  '  --chain     run the EVM networks on a real chain: a local node, or the node at RPC_URL (Hardhat, Anvil);\n' +
  '              the Solana network on a local Solana chain (LiteSVM), and the TON networks on the TON\n' +
  '              emulator behind a toncenter-shaped RPC\n' +
  "Environment: SANDBOX_DEPOSIT_DELAY_MS (ms before a simulated deposit arrives, or 'off'; default 4000);\n" +
  "  SANDBOX_CHAIN_PICKUP_MS (with a chain: ms from a deposit's block to the service listing it; default 3000);\n" +
  '  SANDBOX_WEBHOOK_URL and SANDBOX_WEBHOOK_SECRET (whsec_...): Svix-signed status webhooks (off when unset)';

const DEFAULT_CLI_PORT = 8787;

export interface SandboxCliIo {
  /** Where the one line goes (default stdout). */
  out?: (line: string) => void;
  /** Stops the server like SIGINT does (tests, or an embedding process). */
  signal?: AbortSignal;
}

interface CliOptions {
  port: number;
  host: string;
  apiKey: string;
  keySource: 'default' | '--api-key' | 'SANDBOX_API_KEY';
  speed: number;
  depositDelayMs: SandboxTimings['depositDelayMs'];
  /** SANDBOX_CHAIN_PICKUP_MS: how long after a chain deposit's block the sandbox's service lists it. */
  chainPickupMs?: number;
  webhook: SandboxWebhookOptions | undefined;
  help: boolean;
  /** --chain: '' for a local node, else its RPC URL. */
  chain?: string;
}

export async function runSandboxCli(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  io: SandboxCliIo = {},
): Promise<void> {
  const out = io.out ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const opts = parseSandboxArgs(argv, env);
  if (opts.help) {
    out(SANDBOX_USAGE);
    return;
  }
  const sandbox = await startSandbox({
    port: opts.port,
    host: opts.host,
    apiKey: opts.apiKey,
    speed: opts.speed,
    timings: { depositDelayMs: opts.depositDelayMs, ...(opts.chainPickupMs !== undefined ? { chainPickupMs: opts.chainPickupMs } : {}) },
    webhook: opts.webhook,
    ...(opts.chain !== undefined ? { chain: opts.chain ? { url: opts.chain } : {} } : {}),
  });
  if (sandbox.chain) {
    out(`chain rpc: ${sandbox.chain.url}`);
    out(`chain funded key: ${sandbox.chain.fundedKey}`);
    const ton = sandbox.chain.ton?.ton;
    if (ton) {
      out(`ton rpc (toncenter API v2): ${ton.url}`);
      out(`ton funded wallet (v4r2): ${ton.fundedAddress}, key seed ${ton.fundedSeedHex}`);
    }
  }
  if (sandbox.solana) {
    out(`solana rpc: ${sandbox.solana.url}`);
    out(`solana funded key: ${sandbox.solana.fundedKey} (address ${sandbox.solana.fundedAddress})`);
  }
  const keyHint =
    opts.keySource === 'default'
      ? 'X-LS-APIKEY: sandbox'
      : `X-LS-APIKEY: the value of ${opts.keySource === '--api-key' ? '--api-key' : 'SANDBOX_API_KEY'}`;
  const deposits = opts.depositDelayMs === 'off' ? 'simulated deposits off' : `simulated deposits after ${opts.depositDelayMs} ms`;
  const hooks = opts.webhook ? `; webhooks to ${opts.webhook.url}` : '';
  out(`Layerswap sandbox listening on ${sandbox.url} (${keyHint}; ${deposits}${hooks}; speed ${opts.speed}x). Stop with Ctrl+C.`);
  // Its swaps' times run ahead of the wall clock: the bot's processes read this clock instead.
  if (opts.speed !== 1 && sandbox.clock instanceof SystemClock)
    out(
      `clock: start the bot with SANDBOX_CLOCK=${sandbox.clock.origin}@${sandbox.clock.speed} so its times agree with this sandbox's swaps`,
    );

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      void sandbox.close().then(resolve, resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Flags win over the environment; every bad value is reported with what would be right. */
export function parseSandboxArgs(argv: string[], env: Readonly<Record<string, string | undefined>>): CliOptions {
  const flags = new Map<string, string>();
  let help = false;
  let chain: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (arg === '--chain' || arg.startsWith('--chain=')) {
      const next = arg.includes('=') ? arg.slice(8) : argv[i + 1] !== undefined && /^https?:\/\//.test(argv[i + 1] ?? '') ? argv[++i] : '';
      if (next && !/^https?:\/\/\S+$/.test(next))
        throw new Error(`--chain takes an http(s) RPC URL or nothing (got '${next.slice(0, 40)}').`);
      chain = next ?? '';
      continue;
    }
    const m = /^--(port|host|api-key|speed)(?:=(.*))?$/.exec(arg);
    if (!m) throw new Error(`Unknown option '${arg.slice(0, 40)}'.\n${SANDBOX_USAGE}`);
    const name = m[1] ?? '';
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === '') throw new Error(`--${name} needs a value.\n${SANDBOX_USAGE}`);
    flags.set(name, value);
  }

  const portText = flags.get('port') ?? String(DEFAULT_CLI_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535)
    throw new Error(`--port must be a whole number from 0 to 65535 (got '${portText.slice(0, 20)}').`);

  const speedText = flags.get('speed') ?? env.SANDBOX_SPEED ?? '1';
  const speed = Number(speedText);
  if (!/^\d*\.?\d+$/.test(speedText.trim()) || !(speed > 0) || speed > 10_000) {
    throw new Error(`--speed (or SANDBOX_SPEED) must be a number above 0 and at most 10000 (got '${speedText.slice(0, 20)}').`);
  }

  const delayText = (env.SANDBOX_DEPOSIT_DELAY_MS ?? '4000').trim();
  let depositDelayMs: SandboxTimings['depositDelayMs'];
  if (delayText.toLowerCase() === 'off') depositDelayMs = 'off';
  else if (/^\d+$/.test(delayText) && Number(delayText) <= 86_400_000) depositDelayMs = Number(delayText);
  else
    throw new Error(`SANDBOX_DEPOSIT_DELAY_MS must be a number of milliseconds (0 to 86400000) or off (got '${delayText.slice(0, 20)}').`);

  const pickupText = env.SANDBOX_CHAIN_PICKUP_MS?.trim();
  if (pickupText && !(/^\d+$/.test(pickupText) && Number(pickupText) <= 86_400_000))
    throw new Error(`SANDBOX_CHAIN_PICKUP_MS must be a number of milliseconds (0 to 86400000) (got '${pickupText.slice(0, 20)}').`);
  const chainPickupMs = pickupText ? Number(pickupText) : 3_000;

  const flagKey = flags.get('api-key');
  const envKey = env.SANDBOX_API_KEY || undefined;
  const apiKey = flagKey ?? envKey ?? 'sandbox';
  const keySource = apiKey === 'sandbox' ? 'default' : flagKey !== undefined ? '--api-key' : 'SANDBOX_API_KEY';

  // Both or neither; the secret is checked (never echoed) by startSandbox.
  const hookUrl = env.SANDBOX_WEBHOOK_URL?.trim() || undefined;
  const hookSecret = env.SANDBOX_WEBHOOK_SECRET?.trim() || undefined;
  if (Boolean(hookUrl) !== Boolean(hookSecret)) {
    throw new Error('SANDBOX_WEBHOOK_URL and SANDBOX_WEBHOOK_SECRET go together: set both (the secret as whsec_...) or neither.');
  }
  const webhook = hookUrl && hookSecret ? { url: hookUrl, secret: hookSecret } : undefined;

  return {
    port,
    host: flags.get('host') ?? '127.0.0.1',
    apiKey,
    keySource,
    speed,
    depositDelayMs,
    ...(chainPickupMs !== undefined ? { chainPickupMs } : {}),
    webhook,
    help,
    ...(chain !== undefined ? { chain } : {}),
  };
}
