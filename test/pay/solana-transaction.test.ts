import {
  address,
  appendTransactionMessageInstructions,
  blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { describe, expect, it } from 'vitest';
import { DepositActionSchema, type DepositAction } from '../../src/layerswap/schemas.js';
import { solanaChainOf, solanaTransaction } from '../../src/pay/solana.js';
import { rawFixture } from '../support/fixtures.js';

/**
 * The pay server hands a Solana wallet the deposit action's own transaction, and only when it reads
 * as this swap's payment from the connected wallet. The action is the docs' Solana wallet-flow
 * example (test/fixtures/layerswap/docs.deposit-actions.lifi-solana.json: 0.1 SOL to
 * 6H7GC…DBe, call_data "<base64-encoded Solana Transaction: transfer + Memo>"), its placeholder
 * filled with real transactions built here as the docs describe, and with ones that are not it.
 */
const docs = (rawFixture('docs.deposit-actions.lifi-solana.json') as { deposit_actions: unknown[] }).deposit_actions.map((a) =>
  DepositActionSchema.parse(a),
);
const action = docs[0]!;
const TO = address(action.to_address!);
const MEMO = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const USDC = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
const HASH = blockhash('4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi');

function wire(payer: TransactionSigner, instructions: Instruction[]): string {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: HASH, lastValidBlockHeight: 100n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getBase64EncodedWireTransaction(compileTransaction(message));
}

const memo = (text: string): Instruction => ({ programAddress: MEMO, data: new TextEncoder().encode(text) });
const sol = (from: TransactionSigner, to = TO, amount = 100_000_000n) =>
  getTransferSolInstruction({ source: from, destination: to, amount });
const withCallData = (a: DepositAction, callData: string): DepositAction[] => [{ ...a, call_data: callData }];

describe('the Solana transaction handed to the wallet', () => {
  it('the docs action as published (a placeholder, not a transaction) is refused: nothing to sign', async () => {
    const me = createNoopSigner((await generateKeyPairSigner()).address);
    expect(await solanaTransaction(docs, { from: me.address, network: 'SOLANA_MAINNET' })).toEqual({ ok: false, why: 'no_transaction' });
  });

  it('transfer + Memo from the connected wallet, for the amount, to the action address: handed over byte for byte', async () => {
    const me = createNoopSigner((await generateKeyPairSigner()).address);
    const callData = wire(me, [sol(me), memo('11177265')]);
    const got = await solanaTransaction(withCallData(action, callData), { from: me.address, network: 'SOLANA_MAINNET' });
    expect(got).toEqual({ ok: true, value: { transaction: callData, chain: 'solana:mainnet', amountUnits: '100000000', to: TO } });
    // Without amount_in_base_units, the amount (0.1) in the token's decimals (9) is the same 100000000.
    const { amount_in_base_units: _units, ...byAmount } = action;
    expect((await solanaTransaction(withCallData(byAmount, callData), { from: me.address, network: 'SOLANA_MAINNET' })).ok).toBe(true);
    // The service may leave the signature list out: the same message gets its empty slot, nothing else changes.
    const bytes = getBase64Encoder().encode(callData);
    const bare = Buffer.concat([Buffer.from([0]), Buffer.from(bytes.subarray(65))]).toString('base64');
    const again = await solanaTransaction(withCallData(action, bare), { from: me.address, network: 'SOLANA_MAINNET' });
    expect(again.ok && again.value.transaction).toBe(callData);
  });

  it('an SPL token by transferChecked into the action address account (created in the same transaction) is handed over', async () => {
    const me = createNoopSigner((await generateKeyPairSigner()).address);
    const [from] = await findAssociatedTokenPda({ owner: me.address, mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const [into] = await findAssociatedTokenPda({ owner: TO, mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const usdc = { ...action, amount_in_base_units: '2500000', token: { symbol: 'USDC', decimals: 6, contract: USDC } };
    const pay = getTransferCheckedInstruction({
      source: from,
      mint: USDC,
      destination: into,
      authority: me,
      amount: 2_500_000n,
      decimals: 6,
    });
    const got = await solanaTransaction(withCallData(usdc, wire(me, [pay, memo('1')])), { from: me.address, network: 'SOLANA_DEVNET' });
    expect(got.ok && got.value).toMatchObject({ chain: 'solana:devnet', amountUnits: '2500000', token: USDC });
    // Into someone else's token account: refused.
    const [elsewhere] = await findAssociatedTokenPda({ owner: me.address, mint: USDC, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const wrong = getTransferCheckedInstruction({
      source: from,
      mint: USDC,
      destination: elsewhere,
      authority: me,
      amount: 2_500_000n,
      decimals: 6,
    });
    expect(await solanaTransaction(withCallData(usdc, wire(me, [wrong])), { from: me.address, network: 'SOLANA_MAINNET' })).toEqual({
      ok: false,
      why: 'not_this_swap',
    });
  });

  it('any other transaction is never handed to the wallet: another payee, amount, fee payer, signer or program', async () => {
    const me = createNoopSigner((await generateKeyPairSigner()).address);
    const other = createNoopSigner((await generateKeyPairSigner()).address);
    const cases: Record<string, string> = {
      'another payee': wire(me, [sol(me, other.address), memo('1')]),
      'another amount': wire(me, [sol(me, TO, 100_000_001n), memo('1')]),
      'a second transfer': wire(me, [sol(me), sol(me, other.address, 1n)]),
      'another fee payer': wire(other, [sol(me), memo('1')]),
      'another signer to sign': wire(me, [sol(me), sol(other, TO, 0n)]),
      'an unknown program': wire(me, [sol(me), { programAddress: other.address, data: new Uint8Array([1]) }]),
      'no transfer at all': wire(me, [memo('1')]),
    };
    for (const [what, callData] of Object.entries(cases)) {
      const got = await solanaTransaction(withCallData(action, callData), { from: me.address, network: 'SOLANA_MAINNET' });
      expect({ what, got }).toEqual({ what, got: { ok: false, why: 'not_this_swap' } });
    }
    expect(
      await solanaTransaction(withCallData(action, 'bm90IGEgdHJhbnNhY3Rpb24='), { from: me.address, network: 'SOLANA_MAINNET' }),
    ).toEqual({ ok: false, why: 'no_transaction' });
    expect(solanaChainOf('SOLANA_TESTNET')).toBe('solana:testnet');
  });
});
