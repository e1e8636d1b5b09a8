import { PAYOUT_GAS_USD } from './catalog.js';
import type { Route } from './model.js';
import { floorTo, formatTimeSpan, roundTo } from './numbers.js';
import { completionSeconds, priceOf, refuelOffer, rewardFor, SERVICE_FEE_RATE } from './routes.js';
import { networkRefView, tokenView, type Json } from './views.js';

/**
 * Quote math in the service's units (reference section 5): fees in source-token units, taken out of
 * the amount; receive amounts in destination-token units; slippage a fraction.
 *   blockchain_fee = fixed gas cost of both sides (USD, by family) / source price: not proportional
 *   service_fee    = a small rate of the amount (live: 0.002382 USDC on 10)
 *   receive_amount = (amount - total_fee - refuel_in_source) * rate; rate 1 within a token group
 *                    (live: USDC to USDC), else source price / destination price
 */

export interface QuoteFigures {
  requested_amount: number;
  receive_amount: number;
  min_receive_amount: number;
  blockchain_fee: number;
  service_fee: number;
  total_fee: number;
  total_fee_in_usd: number;
  refuel_in_source: number;
  rate: number;
  slippage: number;
  avg_completion_time: string;
  /** What the refuel delivers in the destination's native token, when one was asked for and offered. */
  refuel: { amount: number; amountInUsd: number } | null;
}

/**
 * Quotes may depend on the destination (Layerswap's app re-quotes once it is known): the sandbox
 * models it as a payout to a contract account costing more gas, an EVM address starting 0xc0de.
 */
const CONTRACT_PAYOUT_GAS_USD = 0.6;
const isContractDestination = (route: Route, address: string | undefined) =>
  route.to.network.type === 'evm' && /^0xc0de/i.test(address ?? '');

/** A gasless deposit: the paymaster's gas for it, folded into blockchain_fee (docs gasless-swaps.mdx). */
const GASLESS_DEPOSIT_GAS_USD = 0.05;

export function computeQuote(
  route: Route,
  amount: number,
  options: { refuel: boolean; slippage: number; destinationAddress?: string | undefined; gasless?: boolean },
): QuoteFigures {
  const src = route.from.token;
  const dst = route.to.token;
  const srcPrice = priceOf(src);
  const places = src.precision;
  const gasUsd =
    PAYOUT_GAS_USD[route.from.network.type] +
    PAYOUT_GAS_USD[route.to.network.type] +
    (isContractDestination(route, options.destinationAddress) ? CONTRACT_PAYOUT_GAS_USD : 0) +
    (options.gasless ? GASLESS_DEPOSIT_GAS_USD : 0);
  const blockchainFee = roundTo(gasUsd / srcPrice, places);
  const serviceFee = roundTo(amount * SERVICE_FEE_RATE, places);
  const totalFee = roundTo(blockchainFee + serviceFee, places);
  const offer = options.refuel ? refuelOffer(route.to.network, dst) : null;
  const refuelInSource = offer ? roundTo(offer.amountInUsd / srcPrice, places) : 0;
  const rate = route.crossAsset ? roundTo(srcPrice / priceOf(dst), 8) : 1;
  const receive = Math.max(0, floorTo((amount - totalFee - refuelInSource) * rate, dst.precision));
  return {
    requested_amount: amount,
    receive_amount: receive,
    min_receive_amount: floorTo(receive * (1 - options.slippage), Math.min(dst.decimals, dst.precision + 2)),
    blockchain_fee: blockchainFee,
    service_fee: serviceFee,
    total_fee: totalFee,
    total_fee_in_usd: roundTo(totalFee * srcPrice, 6),
    refuel_in_source: refuelInSource,
    rate,
    slippage: options.slippage,
    avg_completion_time: formatTimeSpan(completionSeconds(route)),
    refuel: offer ? { amount: offer.amount, amountInUsd: offer.amountInUsd } : null,
  };
}

function quoteView(route: Route, q: QuoteFigures): Json {
  return {
    source_network: networkRefView(route.from.network),
    source_token: tokenView(route.from.token),
    destination_network: networkRefView(route.to.network),
    destination_token: tokenView(route.to.token),
    requested_amount: q.requested_amount,
    receive_amount: q.receive_amount,
    fee_discount: 0,
    min_receive_amount: q.min_receive_amount,
    blockchain_fee: q.blockchain_fee,
    service_fee: q.service_fee,
    avg_completion_time: q.avg_completion_time,
    refuel_in_source: q.refuel_in_source,
    slippage: q.slippage,
    rate: q.rate,
    path: [{ provider: 'LAYERSWAP', order: 0 }],
    total_fee: q.total_fee,
    total_fee_in_usd: q.total_fee_in_usd,
  };
}

/** The quote inside a swap (POST /swaps, GET /swaps/{id}): figures only, no networks, rate or path (SPEC SwapQuote). */
export function swapQuoteView(q: QuoteFigures): Json {
  return {
    receive_amount: q.receive_amount,
    min_receive_amount: q.min_receive_amount,
    blockchain_fee: q.blockchain_fee,
    service_fee: q.service_fee,
    avg_completion_time: q.avg_completion_time,
    total_fee: q.total_fee,
    total_fee_in_usd: q.total_fee_in_usd,
    refuel_in_source: q.refuel_in_source,
    slippage: q.slippage,
  };
}

/** {quote, refuel, reward}: GET /quote data, and the same three keys in swap responses. */
export function quoteParts(route: Route, q: QuoteFigures): { quote: Json; refuel: Json | null; reward: Json | null } {
  const native = route.to.network.native;
  const reward = rewardFor(route);
  return {
    quote: quoteView(route, q),
    refuel: q.refuel
      ? {
          token: tokenView(native),
          network: networkRefView(route.to.network),
          amount: q.refuel.amount,
          amount_in_usd: q.refuel.amountInUsd,
        }
      : null,
    reward: reward
      ? {
          token: tokenView(reward.token),
          network: networkRefView(reward.network),
          amount: reward.amount,
          amount_in_usd: reward.amountInUsd,
          campaign_type: 'default',
          nft_contract_address: null,
        }
      : null,
  };
}
