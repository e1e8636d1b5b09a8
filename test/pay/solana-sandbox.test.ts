import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPair,
  getAddressFromPublicKey,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerswapClient } from '../../src/layerswap/client.js';
import { solanaTransaction } from '../../src/pay/solana.js';
import { solanaShortfall } from '../../src/pay/solana-balance.js';
import { startSandbox } from '../../src/sandbox/server.js';
import type { SandboxServer } from '../../src/sandbox/types.js';
import { waitFor } from '../support/wait.js';

/**
 * A Solana wallet-flow swap of an SPL token against the sandbox on its LiteSVM chain, without a
 * browser: the `transfer` action asked for with the wallet's address carries a real transaction
 * (the deposit address's token account created idempotently, transferChecked, the Memo), the pay
 * server's check hands it over as it is, the balance check reads the wallet's token account, and
 * once the wallet signs and sends those bytes the sandbox sees the USDC and the swap moves on.
 */
const USDC = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
const DEST = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

let sandbox: SandboxServer;
let client: LayerswapClient;
let rpcUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ timings: { depositDelayMs: 'off', confirmationIntervalMs: 60_000 }, chain: { blockMs: 400, pollMs: 50 } });
  client = new LayerswapClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, maxRetries: 0 });
  rpcUrl = sandbox.solana!.url;
});

afterAll(async () => {
  await sandbox?.close();
});

/** The funded account sends `units` of USDC (and 1 SOL for fees) to a fresh wallet. */
async function walletWithUsdc(units: bigint) {
  const keys = await generateKeyPair();
  const owner = await getAddressFromPublicKey(keys.publicKey);
  const rpc = createSolanaRpc(rpcUrl);
  await rpc.requestAirdrop(owner, lamports(1_000_000_000n)).send();
  const funded = await createKeyPairSignerFromBytes(getBase58Encoder().encode(sandbox.solana!.fundedKey));
  const [from] = await findAssociatedTokenPda({ owner: funded.address, mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [into] = await findAssociatedTokenPda({ owner, mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const create = await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: funded, owner, mint: USDC });
  const move = getTransferCheckedInstruction({
    source: from,
    mint: USDC,
    destination: into,
    authority: funded,
    amount: units,
    decimals: 6,
  });
  const { value: latest } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(funded, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions([create, move], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
  return { keys, owner };
}

describe('a Solana wallet-flow swap of USDC on the sandbox chain', () => {
  it("the action's transaction pays the swap's token account; signed as it is, the sandbox sees the deposit", async () => {
    const { keys, owner } = await walletWithUsdc(30_000_000n);
    const created = await client.createSwap({
      source_network: 'SOLANA_MAINNET',
      source_token: 'USDC',
      destination_network: 'BASE_MAINNET',
      destination_token: 'USDC',
      amount: 25,
      destination_address: DEST,
      use_deposit_address: false,
    });
    const swapId = created.swap.id;
    // Without the wallet's address the action keeps the memo; with it, a whole transaction for that wallet.
    expect(created.deposit_actions?.[0]?.call_data).toMatch(/^\d+$/);
    const actions = await client.getDepositActions(swapId, { source_address: owner });
    const got = await solanaTransaction(actions, { from: owner, network: 'SOLANA_MAINNET' });
    if (!got.ok) throw new Error(`refused: ${got.why}`);
    expect(got.value).toMatchObject({ transaction: actions[0]?.call_data, amountUnits: '25000000', token: USDC, chain: 'solana:mainnet' });
    // Enough USDC and SOL: nothing missing. Another wallet with no USDC: the amount is missing.
    expect(await solanaShortfall(rpcUrl, owner, got.value)).toBeUndefined();
    const empty = await getAddressFromPublicKey((await generateKeyPair()).publicKey);
    expect(await solanaShortfall(rpcUrl, empty, got.value)).toEqual({ kind: 'amount', have: 0n, need: 25_000_000n });

    const tx = getTransactionDecoder().decode(getBase64Encoder().encode(got.value.transaction));
    const signed = await signTransaction([keys], tx);
    await createSolanaRpc(rpcUrl).sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
    await waitFor(async () => (await client.getSwap(swapId)).swap.status !== 'user_transfer_pending', 'the sandbox to see the deposit');
    const after = await client.getSwap(swapId);
    const input = after.swap.transactions?.find((t) => t.type === 'input');
    expect(input?.amount).toBe(25);
  });
});
