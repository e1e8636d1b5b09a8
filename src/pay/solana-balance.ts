import { address, createSolanaRpc, getBase64Encoder } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { Shortfall } from './families.js';

/**
 * What a Solana wallet holds against what its payment needs, read before the wallet is asked (the
 * EVM page reads it through the wallet; a Wallet Standard wallet offers no balance, so the server
 * asks the network's own RPC, the swap's `node_url`). SOL: the amount plus the fee; a token: the
 * amount in the wallet's associated token account, and SOL for the fee and, when the deposit
 * address has no account for the token yet, its rent. Undefined when it is enough or cannot be read.
 */
/** Lamports per signature (the base fee), and the rent of a token account (165 bytes). */
const FEE = 5_000n;
const TOKEN_ACCOUNT_RENT = 2_039_280n;

export async function solanaShortfall(
  nodeUrl: string,
  from: string,
  payment: { to: string; amountUnits: string; token?: string },
): Promise<Shortfall | undefined> {
  try {
    const rpc = createSolanaRpc(nodeUrl);
    const lamports = (await rpc.getBalance(address(from)).send()).value;
    const need = BigInt(payment.amountUnits);
    if (!payment.token)
      return lamports < need ? { kind: 'amount', have: lamports, need } : lamports < need + FEE ? { kind: 'fee' } : undefined;
    const mint = address(payment.token);
    const [mine] = await findAssociatedTokenPda({ owner: address(from), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [theirs] = await findAssociatedTokenPda({ owner: address(payment.to), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [account, target] = await Promise.all([
      rpc.getAccountInfo(mine, { encoding: 'base64' }).send(),
      rpc.getAccountInfo(theirs, { encoding: 'base64' }).send(),
    ]);
    const data = account.value ? getBase64Encoder().encode(account.value.data[0]) : undefined;
    // A token account: mint (32), owner (32), amount (u64, little-endian).
    const have = data && data.length >= 72 ? new DataView(data.buffer, data.byteOffset + 64, 8).getBigUint64(0, true) : 0n;
    if (have < need) return { kind: 'amount', have, need };
    return lamports < FEE + (target.value ? 0n : TOKEN_ACCOUNT_RENT) ? { kind: 'fee' } : undefined;
  } catch {
    // No answer from the RPC: the wallet's own check stands (it refuses to send what it cannot pay).
    return undefined;
  }
}
