import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { NetworkRef, Quote, SwapDetails, Token } from '../layerswap/schemas.js';
import { sightingOf } from '../contracts/chain.js';

/**
 * The swap details kept per followed swap for rendering status cards and key-moment messages.
 * GET /swaps/{id} answers ~7 KB, most of it logos, node urls, network metadata and native
 * tokens nested in every network: slimDetails keeps what the cards and messages read (swap
 * fields, transactions, quote figures; networks and tokens cut to their names, explorer
 * templates and amounts' decimals), and the stored form is that JSON deflated (~0.5 KB).
 */

const NETWORK_FIELDS = ['name', 'display_name', 'chain_id', 'type', 'transaction_explorer_template', 'account_explorer_template'] as const;
const TOKEN_FIELDS = ['symbol', 'display_asset', 'contract', 'decimals', 'price_in_usd', 'precision'] as const;

type Loose = Record<string, unknown>;

function pick(o: Loose, fields: readonly string[]): Loose {
  const out: Loose = {};
  for (const f of fields) if (o[f] !== undefined) out[f] = o[f];
  return out;
}

function slimNetwork<T extends NetworkRef | null | undefined>(n: T): T {
  return (n ? pick(n, NETWORK_FIELDS) : n) as T;
}

function slimToken<T extends Token | null | undefined>(t: T): T {
  return (t ? pick(t, TOKEN_FIELDS) : t) as T;
}

/** Replaces the nested network and token objects of `o` by their slim copies; other fields stay. */
function slimNested<T extends object>(o: T): T {
  const out: Loose = { ...(o as Loose) };
  for (const [k, v] of Object.entries(out)) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    if (k === 'network' || k.endsWith('_network')) out[k] = slimNetwork(v as NetworkRef);
    else if (k === 'token' || k.endsWith('_token')) out[k] = slimToken(v as Token);
  }
  return out as T;
}

function quoteFigures(quote: Quote): Quote {
  const { source_network: _sn, source_token: _st, destination_network: _dn, destination_token: _dt, ...figures } = quote;
  return figures;
}

/** What the cards and key-moment messages need from a swap's details; pure. */
export function slimDetails(details: SwapDetails): SwapDetails {
  const { swap, quote, refuel, reward } = details;
  const out: SwapDetails = {
    swap: {
      ...slimNested(swap),
      source_exchange: swap.source_exchange
        ? { name: swap.source_exchange.name, display_name: swap.source_exchange.display_name }
        : swap.source_exchange,
      destination_exchange: swap.destination_exchange
        ? { name: swap.destination_exchange.name, display_name: swap.destination_exchange.display_name }
        : swap.destination_exchange,
      transactions: swap.transactions.map(slimNested),
    },
  };
  // The quote's networks and tokens repeat the swap's: its figures are what the cards read.
  if (quote !== undefined) out.quote = quote ? quoteFigures(quote) : quote;
  if (refuel !== undefined) out.refuel = refuel ? slimNested(refuel) : refuel;
  if (reward !== undefined) out.reward = reward ? slimNested(reward) : reward;
  // What the chain watcher saw (chain-watch.ts) travels with the card data.
  const chain = sightingOf(details);
  if (chain) (out as { chain?: unknown }).chain = chain;
  // deposit_actions are left out: the deposit card is sent once, when the swap is created.
  return out;
}

/**
 * A preset deflate dictionary: the field names and usual values of a slim details JSON, so even
 * their first occurrence costs a back-reference (the stored blob is about half the size).
 * NEVER edit it: blobs written with it can only be read with the same bytes. A different
 * dictionary needs a new format byte (and this one kept for reading).
 */
const DICTIONARY_V1 = Buffer.from(
  '{"swap":{"id":"","created_date":"","status":"user_transfer_pending","source_network":{"name":"","display_name":"","chain_id":"","type":"evm",' +
    '"transaction_explorer_template":"https://","account_explorer_template":"https://"},"source_token":{"symbol":"USDC","display_asset":"USDC",' +
    '"contract":"0x","decimals":6,"price_in_usd":1,"precision":6},"destination_address":"0x","source_address":null,"refund_address":null,' +
    '"requested_amount":0,"fail_reason":null,"use_deposit_address":true,"source_exchange":null,"destination_exchange":null,"metadata":{"reference_id":null,' +
    '"app":null,"exchange_account":null,"sequence_number":0},"transactions":[{"type":"input","status":"completed","from":"0x","to":"0x",' +
    '"transaction_hash":"0x","amount":0,"confirmations":0,"max_confirmations":0,"usd_value":0,"usd_price":0,"created_date":"","timestamp":"",' +
    '"fee_amount":null,"fee_token":null}]},"quote":{"requested_amount":0,"receive_amount":0,"fee_discount":0,"min_receive_amount":0,"blockchain_fee":0,' +
    '"service_fee":0,"total_fee":0,"total_fee_in_usd":0,"avg_completion_time":"00:00:","refuel_in_source":0,"slippage":0,"rate":1,' +
    '"path":[{"provider":"LAYERSWAP","order":0}]},"refuel":null,"reward":null}',
  'utf8',
);

/** Format byte of the stored blob. */
const DEFLATED_V1 = 0x01;

/** The stored form: a format byte, then the slim JSON deflated with DICTIONARY_V1. */
export function encodeDetails(details: SwapDetails): Buffer {
  return Buffer.concat([Buffer.of(DEFLATED_V1), deflateRawSync(JSON.stringify(slimDetails(details)), { dictionary: DICTIONARY_V1 })]);
}

/** Reads the stored form; undefined when unreadable (that card waits for the next change rather than crash a job). */
export function decodeDetails(raw: Buffer | null | undefined): SwapDetails | undefined {
  if (!raw || raw.length === 0) return undefined;
  try {
    if (raw[0] !== DEFLATED_V1) return undefined;
    const json = inflateRawSync(raw.subarray(1), { dictionary: DICTIONARY_V1 }).toString('utf8');
    const parsed = JSON.parse(json) as unknown;
    return parsed && typeof parsed === 'object' && 'swap' in parsed ? (parsed as SwapDetails) : undefined;
  } catch {
    return undefined;
  }
}
