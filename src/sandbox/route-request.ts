import { ADDRESS_FORMATS, isValidAddress } from './addresses.js';
import { checkDecimals, Fields, type Amount } from './fields.js';
import { SandboxHttpError, validation } from './http-error.js';
import { clip, resolveNetwork, resolveToken } from './lookup.js';
import type { CatalogNetwork, Route } from './model.js';
import { computeQuote, type QuoteFigures } from './quote.js';
import { DEFAULT_SLIPPAGE, findRoute, limitsOf, refuelOffer, type Limits } from './routes.js';

/**
 * What GET /quote and POST /swaps share: resolving the route, reading the amount and options, and
 * the checks in the order the service reports them: parameters, route, addresses, limits.
 */

export interface RouteRequest {
  route: Route;
  amount: Amount;
  /** Asked for and offered on this destination. */
  refuel: boolean;
  slippage: number;
  useDepositAddress: boolean;
  /** Funded by a signed EIP-3009 authorization (sandbox/gasless.ts); the quote carries the paymaster's gas. */
  useGasless: boolean;
  destinationAddress: string | undefined;
  sourceAddress: string | undefined;
  limits: Limits;
  figures: QuoteFigures;
}

export function parseRouteRequest(f: Fields, options: { destinationRequired: boolean }): RouteRequest {
  const srcNetwork = resolveNetwork('source_network', f.string('source_network', true));
  const srcToken = resolveToken('source_token', srcNetwork, f.string('source_token', true));
  const dstNetwork = resolveNetwork('destination_network', f.string('destination_network', true));
  const dstToken = resolveToken('destination_token', dstNetwork, f.string('destination_token', true));
  const amount = f.amount('amount');
  const useDepositAddress = f.bool('use_deposit_address') ?? false;
  const useGasless = f.bool('use_gasless') ?? false;
  const useDepository = f.bool('use_depository') ?? false;
  if (useDepositAddress && useDepository) throw validation('use_deposit_address and use_depository cannot both be true.');
  if (useDepositAddress && useGasless) throw validation('use_gasless cannot be combined with use_deposit_address.');
  const slippage = parseSlippage(f.string('slippage'));
  const refuelAsked = f.bool('refuel') ?? false;

  const pair = `${srcToken.symbol} on ${srcNetwork.name} to ${dstToken.symbol} on ${dstNetwork.name}`;
  const route = findRoute({ network: srcNetwork, token: srcToken }, { network: dstNetwork, token: dstToken });
  if (!route) throw new SandboxHttpError('ROUTE_NOT_FOUND_ERROR', `No route from ${pair}.`);
  if (route.status !== 'active')
    throw new SandboxHttpError('ROUTE_NOT_FOUND_ERROR', `The route from ${pair} is not available at the moment.`);
  checkDecimals('amount', amount, srcToken);
  if (useDepositAddress && !srcNetwork.deposit_methods.includes('deposit_address')) {
    throw new SandboxHttpError(
      'QUOTE_REQUIRES_NO_DEPOSIT_ADDRESS',
      `${srcNetwork.display_name} does not offer deposit addresses: send from a wallet (use_deposit_address=false).`,
    );
  }

  if (useGasless && !(srcNetwork.type === 'evm' && srcToken.supports_gasless_deposit))
    throw validation(
      `${srcToken.symbol} on ${srcNetwork.display_name} does not support gasless deposits (supports_gasless_deposit is false).`,
    );

  const destinationAddress = options.destinationRequired ? f.string('destination_address', true) : f.string('destination_address');
  if (destinationAddress !== undefined) checkAddress('destination_address', dstNetwork, destinationAddress);
  const sourceAddress = f.string('source_address');
  if (sourceAddress !== undefined) checkAddress('source_address', srcNetwork, sourceAddress);

  const refuel = refuelAsked && refuelOffer(dstNetwork, dstToken) !== null;
  const limits = limitsOf(route, refuel);
  if (amount.value < limits.min) {
    throw new SandboxHttpError(
      'LESS_THAN_MIN_ERROR',
      `The amount is below the minimum of ${limits.min} ${srcToken.symbol} for this route.`,
      {
        metadata: { AmountLimit: limits.min },
      },
    );
  }
  if (amount.value > limits.max) {
    throw new SandboxHttpError(
      'GREATER_THAN_MAX_ERROR',
      `The amount is above the maximum of ${limits.max} ${srcToken.symbol} for this route.`,
      {
        metadata: { AmountLimit: limits.max },
      },
    );
  }
  // Layerswap refuses, at creation only, an EIP-7702 delegated destination that cannot take native ETH.
  if (
    options.destinationRequired &&
    destinationAddress &&
    dstToken.contract === null &&
    DELEGATED_7702.has(destinationAddress.toLowerCase())
  ) {
    throw new SandboxHttpError(
      'INVALID_ADDRESS_ERROR',
      `destination_address is an EIP-7702 delegated account that cannot receive native ${dstToken.symbol}.`,
    );
  }
  const figures = computeQuote(route, amount.value, { refuel, slippage, destinationAddress, gasless: useGasless });
  return { route, amount, refuel, slippage, useDepositAddress, useGasless, destinationAddress, sourceAddress, limits, figures };
}

/** Destination addresses the sandbox treats as EIP-7702 delegated accounts whose code refuses native ETH. */
const DELEGATED_7702: ReadonlySet<string> = new Set(['0x7702000000000000000000000000000000007702']);

export function checkAddress(param: string, network: CatalogNetwork, address: string): void {
  if (!isValidAddress(network.type, address)) {
    throw new SandboxHttpError(
      'INVALID_ADDRESS_ERROR',
      `${param} '${clip(address, 70)}' is not a valid ${network.display_name} address: expected ${ADDRESS_FORMATS[network.type]}.`,
    );
  }
}

/** Responses carry slippage as a fraction; requests are read the same way (0.005 = 0.5 %), as the web app sends it. */
function parseSlippage(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_SLIPPAGE;
  const value = Number(raw);
  if (!/^(\d+\.?\d*|\.\d+)$/.test(raw) || !(value > 0 && value < 0.8)) {
    throw validation(`slippage must be a fraction between 0 and 0.8, such as 0.005 for 0.5 % (got '${clip(raw, 20)}').`);
  }
  return value;
}
