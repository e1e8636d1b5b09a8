import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  isAddress,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Instruction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import type { SwapRecord } from './lifecycle.js';
import { toBaseUnits } from './numbers.js';
import type { Json } from './views.js';

/**
 * A Solana wallet-flow swap's `transfer` action as Layerswap's docs describe it (overview table,
 * reference/fixtures/docs.deposit-actions.lifi-solana.json: "call_data: base64-encoded Solana
 * Transaction: transfer + Memo"), built for the wallet that asks (`source_address`, its fee payer)
 * on the sandbox's local chain with a recent blockhash: SOL by the system program's transfer, an SPL
 * token by transferChecked into the deposit address's associated token account (created in the same
 * transaction if missing), then the swap's sequence number as a Memo (program v2). The wallet signs
 * and sends it as it is (Layerswap's app: packages/wallets/adapters/svm, deserializeSvmTransaction).
 * Without a source address, or without the local chain, the action keeps the memo as its call data.
 */

/** SPL Memo v2 (loaded in LiteSVM by default). */
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

async function solanaTransferTransaction(rec: SwapRecord, source: string, rpcUrl: string): Promise<string> {
  const { token } = rec.request.route.from;
  const value = BigInt(toBaseUnits(rec.request.amount.text, token.decimals));
  const payer = createNoopSigner(address(source));
  const to = address(rec.depositAddress);
  const instructions: Instruction[] = [];
  if (!token.contract) instructions.push(getTransferSolInstruction({ source: payer, destination: to, amount: value }));
  else {
    const mint = address(token.contract);
    const [from] = await findAssociatedTokenPda({ owner: payer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [into] = await findAssociatedTokenPda({ owner: to, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    instructions.push(await getCreateAssociatedTokenIdempotentInstructionAsync({ payer, owner: to, mint }));
    instructions.push(
      getTransferCheckedInstruction({ source: from, mint, destination: into, authority: payer, amount: value, decimals: token.decimals }),
    );
  }
  instructions.push({ programAddress: address(MEMO_PROGRAM), data: new TextEncoder().encode(String(rec.sequenceNumber)) });
  const { value: latest } = await createSolanaRpc(rpcUrl).getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  // Unsigned: the wallet's signature slot is empty (zeros) in the wire form.
  return getBase64EncodedWireTransaction(compileTransaction(message));
}

/**
 * The deposit actions with a Solana wallet-flow `transfer` carrying its transaction for `source`
 * (others as they are). A source that is not a Solana address gets the actions unchanged.
 */
export async function withSolanaTransaction(
  actions: Json[],
  rec: SwapRecord,
  source: string | undefined,
  rpcUrl: string | undefined,
): Promise<Json[]> {
  const network = rec.request.route.from.network;
  if (!rpcUrl || !source || network.type !== 'solana' || rec.request.useDepositAddress || !isAddress(source)) return actions;
  const transaction = await solanaTransferTransaction(rec, source, rpcUrl);
  return actions.map((a) => (a.type === 'transfer' ? { ...a, call_data: transaction } : a));
}
