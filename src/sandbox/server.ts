import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { listen } from '../http.js';
import { FaultBox, faultBody } from './faults.js';
import { EmptyBadRequest, SandboxHttpError } from './http-error.js';
import { envelopeError, localNodeUrl, readJsonBody, safeDecode, send } from './http-io.js';
import { SwapStore } from './swaps.js';
import { sandboxOperations, type Operation } from './operations.js';
import { SystemClock, type SandboxOptions, type SandboxServer, type SandboxTimings } from './types.js';
import { WebhookSender } from './webhooks.js';
import type { SandboxChain } from './chain.js';
import { formatUnits } from 'viem';
import type { SwapRecord } from './lifecycle.js';
import { GaslessDesk } from './gasless.js';
import type { SandboxSolana } from './solana.js';
import { sameContract, type SeenTransfer } from '../chain/watcher.js';
import { isTonSwap } from './ton-deposits.js';

/**
 * The sandbox over real HTTP (node:http, no framework): the real paths, the {data, error}
 * envelope, X-LS-APIKEY, and swaps whose lifecycle follows the clock. One table of operations;
 * each answers data or throws a SandboxHttpError.
 */

export const DEFAULT_TIMINGS: Readonly<SandboxTimings> = {
  depositDelayMs: 4_000,
  confirmationIntervalMs: 2_000,
  payoutDelayMs: 5_000,
  expiryMs: 6 * 60 * 60 * 1000,
  refundDelayMs: 10_000,
  completionLagMs: 1_500,
  chainPickupMs: 0,
};

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const timings = resolveTimings(options.timings);
  const speed = options.speed ?? 1;
  if (!(Number.isFinite(speed) && speed > 0)) throw new Error(`sandbox: speed must be a number above 0 (got ${String(speed)})`);
  const clock = options.clock ?? new SystemClock(speed);
  const apiKey = options.apiKey ?? 'sandbox';
  if (!apiKey) throw new Error('sandbox: apiKey must not be empty');
  // With a chain, deposits are real transfers the sandbox sees there (the timer sends them).
  let chain: SandboxChain | undefined;
  let solana: SandboxSolana | undefined;
  /** The sandbox's chain of a family (EVM and TON on `chain`, Solana). */
  const chainOf = (type: string) => (type === 'evm' ? chain : type === 'solana' ? solana : undefined);
  /** Where a swap's deposit is a real transfer: a deposit address on EVM or Solana; TON's shared address with the swap's comment. */
  const depositChain = (rec: SwapRecord) =>
    isTonSwap(rec)
      ? chain?.ton
        ? chain
        : undefined
      : rec.request.useDepositAddress
        ? chainOf(rec.request.route.from.network.type)
        : undefined;
  const autoDelay = timings.depositDelayMs;
  const gasless = new GaslessDesk(
    clock,
    () => chain,
    (id) => void direct('authorize', () => store.deposit(id, {})),
  );
  const store = new SwapStore(
    clock,
    options.chain ? { ...timings, depositDelayMs: 'off' } : timings,
    options.chain
      ? {
          // The wallet flow too: its transaction pays a real address of this swap's own (solana-transfer.ts;
          // EVM: the `transfer` action's transaction), so the chain watch tells the swaps apart by address.
          depositAddress: (network, id, own) =>
            own || network.type === 'solana' || network.type === 'evm' ? chainOf(network.type)?.depositAddress(id) : undefined,
          signAction: (rec, source) => gasless.signAction(rec, source),
          created: (rec) => {
            chain?.watch(rec);
            solana?.watch(rec);
            const own = depositChain(rec);
            if (autoDelay === 'off' || options.clock || !own) return;
            setTimeout(() => void own.sendDeposit(rec).catch(() => undefined), autoDelay / speed).unref();
          },
        }
      : { signAction: (rec, source) => gasless.signAction(rec, source) },
  );
  let replacer: ((this: unknown, key: string, value: unknown) => unknown) | undefined;
  if (options.chain) {
    // The local chains (EDR, LiteSVM, the TON emulator) load only here: a sandbox without --chain starts without them.
    const [{ startSandboxChain }, { startSandboxSolana, withLocalSolana }] = await Promise.all([
      import('./chain.js'),
      import('./solana.js'),
    ]);
    const credit = (id: string, t: SeenTransfer, head: () => number) => {
      const rec = store.get(id);
      const token = rec?.request.route.from.token;
      // What the real service does: only the swap's token counts, and only before it expired.
      if (!rec || !token || rec.deposit || !sameContract(token.contract, t.contract) || store.statusOf(rec) === 'expired') return;
      const text = formatUnits(t.value, token.decimals);
      rec.deposit = {
        at: clock.now() + timings.chainPickupMs,
        amount: { value: Number(text), text },
        outcome: 'complete',
        txHash: t.txHash,
        chain: { block: t.block, head },
      };
      webhooks?.scan();
    };
    chain = await startSandboxChain(options.chain, (id, t) => {
      const rec = store.get(id);
      const running = chain as SandboxChain;
      credit(id, t, () => (rec && isTonSwap(rec) ? (running.ton?.ton.head() ?? t.block) : running.head()));
    });
    // LiteSVM is a prebuilt binary: where it cannot load, the Solana network keeps simulated deposits.
    solana = await startSandboxSolana(options.chain, (id, t) => credit(id, t, () => (solana as SandboxSolana).head())).catch(
      (err: unknown) => {
        process.emitWarning(`sandbox: no local Solana chain (${err instanceof Error ? err.message : String(err)})`);
        return undefined;
      },
    );
    replacer = withLocalSolana(localNodeUrl(chain.url, chain.chainId, chain.ton ? { ton: chain.ton.ton.url } : {}), solana);
  }
  const faults = new FaultBox();
  const webhooks = options.webhook ? new WebhookSender(options.webhook, store) : undefined;
  const counts = new Map<string, number>();
  let total = 0;

  const operations = sandboxOperations({ store, chain, gasless, ...(solana ? { solana } : {}), webhooks, onChain });

  const keyDigest = digest(apiKey);
  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, envelopeError('INTERNAL_SERVER_ERROR', 'The sandbox could not answer this request.'));
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    total++;
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const found = route(req.method ?? 'GET', path);
    if (!found) {
      const known = operations.some((o) => o.path.test(path));
      req.resume();
      const e = known
        ? new SandboxHttpError('METHOD_NOT_ALLOWED', `${req.method ?? '?'} is not allowed on ${path}.`)
        : new SandboxHttpError('NOT_FOUND', `No operation at ${path}.`);
      return send(res, e.status, envelopeError(e.code, e.message, e.metadata));
    }
    const { op, params } = found;
    counts.set(op.name, (counts.get(op.name) ?? 0) + 1);

    const fault = path.startsWith('/sandbox/') ? undefined : faults.take(path);
    if (fault) {
      req.resume();
      const { contentType, body } = faultBody(fault.status, fault.code);
      const headers: http.OutgoingHttpHeaders = { 'content-type': contentType };
      if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
      res.writeHead(fault.status, headers).end(body);
      return;
    }

    try {
      if (op.auth !== 'none') checkKey(req.headers['x-ls-apikey'], op.auth === 'public');
      const body = op.method === 'POST' ? await readJsonBody(req) : (req.resume(), {});
      const data = await op.run({ url, params, body });
      send(res, 200, { data, error: null }, replacer);
    } catch (e) {
      if (!(e instanceof SandboxHttpError)) throw e;
      if (e instanceof EmptyBadRequest) res.writeHead(400, { 'content-length': 0 }).end();
      else send(res, e.status, envelopeError(e.code, e.message, e.metadata));
    }
  }

  function route(method: string, path: string): { op: Operation; params: string[] } | undefined {
    for (const op of operations) {
      const m = op.method === method ? op.path.exec(path) : null;
      if (m) return { op, params: m.slice(1).map(safeDecode) };
    }
    return undefined;
  }

  function checkKey(sent: string | string[] | undefined, keyOptional: boolean): void {
    const value = Array.isArray(sent) ? sent[0] : sent;
    if (!value) {
      if (keyOptional) return;
      throw new SandboxHttpError('INVALID_CREDENTIALS', 'Missing API key: send it in the X-LS-APIKEY header.', { status: 401 });
    }
    // The real service's words for a key it does not know (wallet-deposits.md §6).
    if (!timingSafeEqual(digest(value), keyDigest)) throw new SandboxHttpError('API_KEY_FORBIDDEN', 'Api key forbidden');
  }

  const listening = await listen(server, { port: options.port ?? 0, host: options.host ?? '127.0.0.1' });

  return {
    url: listening.url,
    ...(chain ? { chain } : {}),
    ...(solana ? { solana } : {}),
    apiKey,
    clock,
    deposit(id, depositOptions) {
      const sent = direct('deposit', () => onChain(id, depositOptions ?? {}));
      if (sent) void sent.catch(() => undefined);
      else direct('deposit', () => store.deposit(id, depositOptions ?? {}));
    },
    expireAuthorization: (id) => gasless.expire(id),
    setStatus(id, status, failReason = null) {
      direct('setStatus', () => store.pin(id, status, failReason));
    },
    injectSwap: (init) => direct('injectSwap', () => store.inject({ ...init })).id,
    webhookStats: () => ({ ...(webhooks?.stats ?? { attempted: 0, delivered: 0, failed: 0 }) }),
    requestCount: (operation) => (operation === undefined ? total : (counts.get(operation) ?? 0)),
    injectFault: (fault) => faults.add(fault),
    close: async () => {
      await chain?.close();
      await solana?.close();
      await webhooks?.close();
      await listening.close({ force: true });
    },
  };

  /**
   * On the sandbox's chain, a deposit that completes is sent as a real transfer from the funded
   * account (same checks first); undefined when it is simulated as before (no chain, a non-EVM or
   * shared-address swap, a failing outcome).
   */
  function onChain(
    id: string,
    opts: { amount?: unknown; outcome?: unknown; failReason?: unknown; late?: boolean },
  ): Promise<SwapRecord> | undefined {
    if (!chain) return undefined;
    const { rec, deposit } = store.checkDeposit(id, opts);
    const own = depositChain(rec);
    if (!own || deposit.outcome !== 'complete' || deposit.failReason) return undefined;
    return own.sendDeposit(rec, deposit.amount.text).then(() => rec);
  }

  /** The programmatic controls: same checks as over HTTP, plain errors, and webhooks looked at at once. */
  function direct<T>(what: string, run: () => T): T {
    try {
      const out = run();
      webhooks?.scan();
      return out;
    } catch (e) {
      throw e instanceof SandboxHttpError ? new Error(`sandbox ${what}: ${e.message}`) : e;
    }
  }
}

function resolveTimings(t: Partial<SandboxTimings> = {}): SandboxTimings {
  const out: SandboxTimings = { ...DEFAULT_TIMINGS };
  for (const [k, v] of Object.entries(t) as [keyof SandboxTimings, unknown][]) {
    if (v === undefined) continue;
    if (k === 'depositDelayMs' && v === 'off') {
      out.depositDelayMs = 'off';
      continue;
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new Error(`sandbox: timings.${k} must be a number of milliseconds of 0 or more${k === 'depositDelayMs' ? " or 'off'" : ''}`);
    }
    out[k] = v;
  }
  return out;
}

const digest = (s: string) => createHash('sha256').update(s).digest();
