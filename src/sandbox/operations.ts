import { listDestinations, listNetworks, listSources, routeLimits } from './catalog-handlers.js';
import { exchangeNetworks, listDestinationExchanges, listExchanges, listSourceExchanges } from './exchanges.js';
import { Fields } from './fields.js';
import { EmptyBadRequest, validation } from './http-error.js';
import { wrongTokenDeposit } from './wrong-token.js';
import { noMemoDeposit } from './ton-deposits.js';
import { resolveNetwork } from './lookup.js';
import { parseRouteRequest } from './route-request.js';
import { quoteParts } from './quote.js';
import { LIST_STATUSES, type SwapStore } from './swaps.js';
import type { WebhookSender } from './webhooks.js';
import type { SandboxChain } from './chain.js';
import type { SandboxSolana } from './solana.js';
import type { SwapRecord } from './lifecycle.js';
import type { GaslessDesk } from './gasless.js';
import { withSolanaTransaction } from './solana-transfer.js';
import type { Json } from './views.js';

/** The sandbox's table of operations (server.ts routes to them): each answers data or throws a SandboxHttpError. */

interface Context {
  url: URL;
  params: string[];
  body: Record<string, unknown>;
}

export interface Operation {
  name: string;
  method: 'GET' | 'POST';
  path: RegExp;
  /**
   * 'public': Layerswap's read endpoints (networks, sources, destinations, quote, limits and the
   * exchange lists) answer without a key; a wrong key is still refused. 'key': everything about
   * swaps, the sandbox's own endpoints included. 'none': health.
   */
  auth: 'none' | 'public' | 'key';
  run(ctx: Context): unknown;
}

interface OperationDeps {
  store: SwapStore;
  chain: SandboxChain | undefined;
  gasless: GaslessDesk;
  /** The Solana network's local chain (--chain). */
  solana?: SandboxSolana;
  webhooks: WebhookSender | undefined;
  /** A completing deposit sent as a real transfer on the sandbox's chain; undefined when simulated (server.ts). */
  onChain: (
    id: string,
    opts: { amount?: unknown; outcome?: unknown; failReason?: unknown; late?: boolean },
  ) => Promise<SwapRecord> | undefined;
}

export function sandboxOperations({ store, chain, gasless, solana, webhooks, onChain }: OperationDeps): Operation[] {
  const swapId = '([^/]+)';
  return [
    { name: 'health', method: 'GET', path: /^\/(api\/v2\/)?health$/, auth: 'none', run: () => ({ status: 'healthy' }) },
    { name: 'getNetworks', method: 'GET', path: /^\/api\/v2\/networks$/, auth: 'public', run: (c) => listNetworks(c.url.searchParams) },
    {
      name: 'getDestinations',
      method: 'GET',
      path: /^\/api\/v2\/destinations$/,
      auth: 'public',
      run: (c) => listDestinations(c.url.searchParams),
    },
    {
      name: 'getQuote',
      method: 'GET',
      path: /^\/api\/v2\/quote$/,
      auth: 'public',
      run: (c) => {
        const r = parseRouteRequest(Fields.fromQuery(c.url.searchParams), { destinationRequired: false });
        return quoteParts(r.route, r.figures);
      },
    },
    { name: 'getSources', method: 'GET', path: /^\/api\/v2\/sources$/, auth: 'public', run: (c) => listSources(c.url.searchParams) },
    { name: 'getLimits', method: 'GET', path: /^\/api\/v2\/limits$/, auth: 'public', run: (c) => routeLimits(c.url.searchParams) },
    { name: 'getExchanges', method: 'GET', path: /^\/api\/v2\/exchanges$/, auth: 'public', run: () => listExchanges() },
    {
      name: 'getSourceExchanges',
      method: 'GET',
      path: /^\/api\/v2\/source_exchanges$/,
      auth: 'public',
      run: (c) => listSourceExchanges(c.url.searchParams),
    },
    {
      name: 'getDestinationExchanges',
      method: 'GET',
      path: /^\/api\/v2\/destination_exchanges$/,
      auth: 'public',
      run: (c) => listDestinationExchanges(c.url.searchParams),
    },
    {
      name: 'getExchangeWithdrawalNetworks',
      method: 'GET',
      path: /^\/api\/v2\/exchange_withdrawal_networks$/,
      auth: 'public',
      run: (c) => exchangeNetworks(c.url.searchParams, 'withdrawal'),
    },
    {
      name: 'getExchangeDepositNetworks',
      method: 'GET',
      path: /^\/api\/v2\/exchange_deposit_networks$/,
      auth: 'public',
      run: (c) => exchangeNetworks(c.url.searchParams, 'deposit'),
    },
    {
      name: 'getTransactionStatus',
      method: 'GET',
      path: /^\/api\/v2\/transaction_status$/,
      auth: 'key',
      run: (c) => {
        const f = Fields.fromQuery(c.url.searchParams);
        const network = resolveNetwork('network', f.string('network', true));
        return store.transactionStatus(network, f.string('transaction_id', true));
      },
    },
    { name: 'createSwap', method: 'POST', path: /^\/api\/v2\/swaps$/, auth: 'key', run: (c) => store.create(c.body) },
    {
      name: 'listSwaps',
      method: 'GET',
      path: /^\/api\/v2\/swaps$/,
      auth: 'key',
      run: (c) => {
        const q = c.url.searchParams;
        const f = Fields.fromQuery(q);
        f.string('address', true);
        const pageText = f.string('page') ?? '1';
        if (!/^\d{1,6}$/.test(pageText) || Number(pageText) < 1)
          throw validation(`page must be a whole number from 1 (got '${pageText.slice(0, 20)}').`);
        const statuses = q.getAll('statuses');
        const bad = statuses.find((v) => !(LIST_STATUSES as readonly string[]).includes(v));
        if (bad !== undefined) throw new EmptyBadRequest(`statuses: '${bad.slice(0, 30)}' is not one of ${LIST_STATUSES.join(', ')}`);
        const filter = { addresses: q.getAll('address'), statuses, networks: q.getAll('networks') };
        return store.listByAddress(filter, Number(pageText), f.bool('include_expired') ?? false);
      },
    },
    {
      name: 'getSwapByTransactionHash',
      method: 'GET',
      path: /^\/api\/v2\/swaps\/by_transaction_hash\/([^/]+)$/,
      auth: 'key',
      run: (c) => store.details(store.findByTxHash(c.params[0] ?? ''), false),
    },
    {
      name: 'speedUpDeposit',
      method: 'POST',
      path: new RegExp(`^/api/v2/swaps/${swapId}/deposit_speedup$`),
      auth: 'key',
      run: (c) => store.speedup(c.params[0] ?? '', c.body),
    },
    {
      name: 'getSwap',
      method: 'GET',
      path: new RegExp(`^/api/v2/swaps/${swapId}$`),
      auth: 'key',
      run: async (c) => {
        const f = Fields.fromQuery(c.url.searchParams);
        const exclude = f.bool('exclude_deposit_actions') ?? false;
        // A gasless swap's sign action, and a Solana wallet transfer's transaction, are built for this wallet.
        const rec = store.find(c.params[0] ?? '');
        const source = f.string('source_address');
        const out = store.details(rec, !exclude, source);
        if (Array.isArray(out.deposit_actions))
          out.deposit_actions = await withSolanaTransaction(out.deposit_actions as Json[], rec, source, solana?.url);
        return out;
      },
    },
    {
      name: 'getDepositActions',
      method: 'GET',
      path: new RegExp(`^/api/v2/swaps/${swapId}/deposit_actions$`),
      auth: 'key',
      run: (c) => {
        const rec = store.find(c.params[0] ?? '');
        const source = Fields.fromQuery(c.url.searchParams).string('source_address');
        return withSolanaTransaction(store.depositActions(rec, source), rec, source, solana?.url);
      },
    },
    {
      name: 'authorizeSwap',
      method: 'POST',
      path: new RegExp(`^/api/v2/swaps/${swapId}/authorize$`),
      auth: 'key',
      run: async (c) => {
        const out = await gasless.authorize(store.find(c.params[0] ?? ''), c.body);
        webhooks?.scan();
        return out;
      },
    },
    {
      name: 'getAuthorization',
      method: 'GET',
      path: new RegExp(`^/api/v2/swaps/${swapId}/authorize$`),
      auth: 'key',
      run: (c) => gasless.status(store.find(c.params[0] ?? '')),
    },
    {
      name: 'sandboxDeposit',
      method: 'POST',
      path: new RegExp(`^/sandbox/swaps/${swapId}/deposit$`),
      auth: 'key',
      run: async (c) => {
        const opts = { amount: c.body.amount, outcome: c.body.outcome, failReason: c.body.fail_reason, late: c.body.late === true };
        // Another token (docs/sandbox.md): a real transfer on the sandbox's chain, which the service never counts.
        if (c.body.token !== undefined)
          return store.details(
            await wrongTokenDeposit(store.find(c.params[0] ?? ''), { evm: chain, solana }, c.body.token, c.body.amount),
            true,
          );
        // TON without the swap's comment (docs/sandbox.md): a real transfer the service never matches.
        if (c.body.memo === false) return store.details(await noMemoDeposit(store.find(c.params[0] ?? ''), chain?.ton), true);
        // With a chain, a completing deposit is a real transfer: the answer comes once it is mined
        // (the swap shows it when the sandbox's chain watch sees it, as the service would).
        const sent = onChain(c.params[0] ?? '', opts);
        if (sent) return store.details(await sent, true);
        const rec = store.deposit(c.params[0] ?? '', opts);
        webhooks?.scan();
        return store.details(rec, true);
      },
    },
    {
      name: 'sandboxStatus',
      method: 'POST',
      path: new RegExp(`^/sandbox/swaps/${swapId}/status$`),
      auth: 'key',
      run: (c) => {
        const rec = store.pin(c.params[0] ?? '', c.body.status, c.body.fail_reason ?? null);
        webhooks?.scan();
        return store.details(rec, false);
      },
    },
    {
      name: 'sandboxInjectSwap',
      method: 'POST',
      path: /^\/sandbox\/swaps$/,
      auth: 'key',
      run: (c) => store.details(store.inject(c.body), false),
    },
  ];
}
