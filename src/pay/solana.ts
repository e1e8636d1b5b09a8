import {
  address,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionEncoder,
  isAddress,
  type Address,
  type CompiledTransactionMessage,
  type ReadonlyUint8Array,
  type Transaction,
  type TransactionMessageBytes,
} from '@solana/kit';
import { findAssociatedTokenPda } from '@solana-program/token';
import { parseUnits } from 'viem';
import type { DepositAction } from '../layerswap/schemas.js';

/**
 * The one Solana transaction the wallet is asked to sign and send: the swap's `transfer` action's
 * `call_data`, a base64 serialized transaction, handed over as it is (Layerswap's app:
 * packages/wallets/adapters/svm, deserializeSvmTransaction; docs: "submit the returned call_data
 * verbatim"). Nothing is ever built here. It is read first, and refused unless it is what the page
 * says it is: the connected wallet pays its fee and is its only signer still to sign, it moves the
 * action's amount of the swap's token to the action's address and nothing else, and it calls only
 * the system, token, associated-token, memo and compute-budget programs. A deposit-address swap
 * (`manual_transfer`, no transaction) gets nothing: a person pays it by hand from the card.
 */
export interface SolanaTransaction {
  /** The wire transaction in base64, the action's bytes (an omitted signature list given its empty slots). */
  transaction: string;
  /** Wallet Standard's chain id for the swap's network (solana:mainnet, solana:devnet, solana:testnet). */
  chain: string;
  /** What it moves, in the token's smallest units, and the token's mint (none for SOL). */
  amountUnits: string;
  token?: string;
  /** The action's address (the balance check asks whether its token account exists). */
  to: string;
}

type SolanaRefusal = 'no_transaction' | 'not_this_swap';

const SYSTEM = '11111111111111111111111111111111';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PeYuA2DZRKS8ou';
const ATA = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const MEMOS = new Set(['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo']);
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';

/** Wallet Standard's chain for a Layerswap Solana network name (solana-wallet-standard-chains). */
export function solanaChainOf(networkName: string): string {
  const n = networkName.toUpperCase();
  return n.includes('DEVNET') ? 'solana:devnet' : n.includes('TESTNET') ? 'solana:testnet' : 'solana:mainnet';
}

export async function solanaTransaction(
  actions: readonly DepositAction[],
  opts: { from: string; network: string },
): Promise<{ ok: true; value: SolanaTransaction } | { ok: false; why: SolanaRefusal }> {
  const action = actions.find((a) => a.type === 'transfer');
  // The exact base units, else the amount in the token's decimals (as the EVM transaction reads it).
  const decimals = action?.token?.decimals ?? 9;
  const units =
    action?.amount_in_base_units ??
    (typeof action?.amount === 'number' ? parseUnits(String(action.amount), decimals).toString() : undefined);
  if (!action?.call_data || !action.to_address || !isAddress(action.to_address) || !units || !/^\d+$/.test(units) || !isAddress(opts.from))
    return { ok: false, why: 'no_transaction' };
  const tx = decode(action.call_data);
  if (!tx) return { ok: false, why: 'no_transaction' };
  const mint = action.token?.contract ?? null;
  const moved = await movedBy(tx.message, opts.from, action.to_address, mint);
  if (moved === undefined || moved !== BigInt(units)) return { ok: false, why: 'not_this_swap' };
  return {
    ok: true,
    value: {
      transaction: getBase64Decoder().decode(getTransactionEncoder().encode(tx.transaction)),
      chain: solanaChainOf(opts.network),
      amountUnits: units,
      ...(mint ? { token: mint } : {}),
      to: action.to_address,
    },
  };
}

/** The wire transaction and its message, or undefined when the text is not one (legacy or v0). */
function decode(base64: string): { transaction: Transaction; message: CompiledTransactionMessage } | undefined {
  try {
    const bytes = getBase64Encoder().encode(base64);
    // The wire form: a compact count of signatures (one byte up to 127), the signatures, the message.
    const count = bytes[0] ?? 0;
    if (count > 127) return undefined;
    const messageBytes = bytes.subarray(1 + 64 * count);
    const [message, end] = getCompiledTransactionMessageDecoder().read(messageBytes, 0);
    if (end !== messageBytes.length || (message.version !== 'legacy' && message.version !== 0)) return undefined;
    const signers = message.staticAccounts.slice(0, message.header.numSignerAccounts);
    if (count !== 0 && count !== signers.length) return undefined;
    // Signatures given stay as they are; an omitted list gets an empty slot per signer (the app does the same).
    const signatures = Object.fromEntries(
      signers.map((s, i) => {
        const sig = count === 0 ? null : bytes.subarray(1 + 64 * i, 65 + 64 * i);
        return [s, sig && sig.some((b) => b !== 0) ? sig : null];
      }),
    );
    return { transaction: { messageBytes: messageBytes as unknown as TransactionMessageBytes, signatures } as Transaction, message };
  } catch {
    return undefined;
  }
}

/**
 * What the transaction moves from `from` to `to` (the address, or its associated token account for
 * the mint), or undefined when it is not that one transfer: another fee payer, another signer left
 * to sign, a program outside the short list, a transfer elsewhere or of another token.
 */
async function movedBy(message: CompiledTransactionMessage, from: string, to: string, mint: string | null): Promise<bigint | undefined> {
  if (message.version === 1) return undefined;
  const keys = message.staticAccounts;
  if (message.version === 0 && (message.addressTableLookups?.length ?? 0) > 0) return undefined;
  if (keys[0] !== from || message.header.numSignerAccounts !== 1) return undefined;
  const destinations = new Set<string>([to]);
  if (mint) {
    for (const program of [TOKEN, TOKEN_2022]) {
      const [ata] = await findAssociatedTokenPda({ owner: address(to), mint: address(mint), tokenProgram: address(program) });
      destinations.add(ata);
    }
  }
  let moved = 0n;
  let transfers = 0;
  for (const ix of message.instructions) {
    const program = keys[ix.programAddressIndex];
    const accounts = (ix.accountIndices ?? []).map((i) => keys[i] as Address | undefined);
    const data = ix.data ?? new Uint8Array();
    if (program === undefined || accounts.some((a) => a === undefined)) return undefined;
    if (MEMOS.has(program)) continue;
    // Compute budget: a unit limit or price only (wallets add these too).
    if (program === COMPUTE_BUDGET && (data[0] === 2 || data[0] === 3)) continue;
    // The associated token account's Create or CreateIdempotent (never RecoverNested, which moves tokens).
    if (program === ATA && (data.length === 0 || (data.length === 1 && (data[0] === 0 || data[0] === 1)))) continue;
    if (program === SYSTEM) {
      // Transfer: u32 index 2, u64 lamports; accounts [from, to]. Anything else of the system program is refused.
      if (mint || data.length !== 12 || readU32(data, 0) !== 2 || accounts[0] !== from || !destinations.has(accounts[1] as string))
        return undefined;
      moved += readU64(data, 4);
      transfers++;
      continue;
    }
    if (program === TOKEN || program === TOKEN_2022) {
      // TransferChecked: u8 12, u64 amount, u8 decimals; accounts [source, mint, destination, owner].
      if (!mint || data.length !== 10 || data[0] !== 12 || accounts[1] !== mint || accounts[3] !== from) return undefined;
      if (!destinations.has(accounts[2] as string)) return undefined;
      moved += readU64(data, 1);
      transfers++;
      continue;
    }
    return undefined;
  }
  return transfers === 1 ? moved : undefined;
}

const readU32 = (b: ReadonlyUint8Array, at: number) => new DataView(b.buffer, b.byteOffset + at, 4).getUint32(0, true);
const readU64 = (b: ReadonlyUint8Array, at: number) => new DataView(b.buffer, b.byteOffset + at, 8).getBigUint64(0, true);
