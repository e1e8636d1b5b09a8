import { Address, type Slice, type Transaction } from '@ton/core';

/**
 * What one TON transaction of a watched (deposit) address brought in, read from the transaction
 * itself (its BOC as the API returns it; the hash is computed here, not taken from the API's
 * word): native TON credited by an internal message whose body is empty or a text comment, or a jetton's
 * `transfer_notification` (op 0x7362d09c) from a jetton wallet, with the comment of its forward
 * payload. A bounced message, a value bounced back, or any other body (a contract call, a
 * jetton's excess) brings no deposit. Whether a notification's sender really is the deposit
 * address's wallet of a jetton is the watcher's check (the jetton master's get_wallet_address).
 */

/** Jetton transfer_notification (TEP-74). */
const TRANSFER_NOTIFICATION = 0x7362d09c;

export interface Incoming {
  /** Hex of the transaction's hash (computed from its cell). */
  txHash: string;
  lt: bigint;
  /** Unix seconds. */
  utime: number;
  /** null: native TON; else the jetton wallet that sent the notification (checked by the watcher). */
  jettonWallet: Address | null;
  value: bigint;
  /** The text comment, or null when the transfer carries none (or a body that is not one). */
  memo: string | null;
  /** Who sent it: the sender's wallet (native), the jetton's previous owner (notification). */
  from: Address | null;
}

/** The transfer a transaction brought to its account, or undefined when it brought none. */
export function incomingOf(tx: Transaction): Incoming | undefined {
  const d = tx.description;
  const msg = tx.inMessage;
  if (d.type !== 'generic' || !msg || msg.info.type !== 'internal' || msg.info.bounced) return undefined;
  // The value stays unless it was bounced back. A transaction on an account with no code yet is
  // "aborted" (nothing to run) and still keeps a non-bounceable message's value.
  if (d.bouncePhase?.type === 'ok') return undefined;
  const credited = d.creditPhase?.credit.coins ?? 0n;
  const base = { txHash: tx.hash().toString('hex'), lt: tx.lt, utime: tx.now };
  const body = msg.body.beginParse();
  if (body.remainingBits < 32) return { ...base, jettonWallet: null, value: credited, memo: null, from: msg.info.src };
  const op = body.loadUint(32);
  if (op === 0) return { ...base, jettonWallet: null, value: credited, memo: textOf(body), from: msg.info.src };
  if (op !== TRANSFER_NOTIFICATION) return undefined;
  try {
    body.loadUintBig(64); // query_id
    const value = body.loadCoins();
    const from = body.loadMaybeAddress();
    // forward_payload: Either Cell ^Cell.
    const payload = body.remainingBits > 0 && body.loadBit() ? body.loadRef().beginParse() : body;
    return { ...base, jettonWallet: msg.info.src, value, memo: commentOf(payload), from };
  } catch {
    return undefined;
  }
}

/** A forward payload's text comment (op 0 then the text), or null. */
function commentOf(s: Slice): string | null {
  if (s.remainingBits < 32) return null;
  return s.loadUint(32) === 0 ? textOf(s) : null;
}

function textOf(s: Slice): string | null {
  try {
    const text = s.loadStringTail();
    return text === '' ? null : text;
  } catch {
    return null;
  }
}

/** An address as the watcher compares it: workchain:hex (case-insensitive forms, EQ/UQ, all the same). */
export function rawOf(address: string): string | undefined {
  try {
    return Address.parse(address.trim()).toRawString();
  } catch {
    return undefined;
  }
}

/** A jetton master as the catalogue writes it (bounceable, URL-safe), lower-cased as tracking compares contracts. */
export function contractKey(master: Address): string {
  return master.toString({ bounceable: true, urlSafe: true }).toLowerCase();
}
