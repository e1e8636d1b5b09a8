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
import { DepositActionSchema, SwapDetailsSchema, type DepositAction } from '../../src/layerswap/schemas.js';
import { depositCards } from '../../src/bot/deposit/card.js';
import { replyText } from '../../src/contracts/reply.js';
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

describe('the deposit card of a Solana swap paid from a wallet', () => {
  it('whose action is a transaction: says to tap Pay from wallet, shows no address and no transaction', async () => {
    const me = createNoopSigner((await generateKeyPairSigner()).address);
    const callData = wire(me, [sol(me), memo('11177265')]);
    const details = SwapDetailsSchema.parse({
      swap: {
        id: '3f2b0c1e-8a4d-4e1f-9c2a-7b5d6e8f9a0b',
        created_date: '2026-01-01T11:58:00+00:00',
        status: 'user_transfer_pending',
        use_deposit_address: false,
        source_network: { name: 'SOLANA_MAINNET', display_name: 'Solana', type: 'solana' },
        source_token: { symbol: 'SOL', decimals: 9 },
        destination_network: { name: 'BASE_MAINNET', display_name: 'Base' },
        destination_token: { symbol: 'ETH', decimals: 18 },
        destination_address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
        requested_amount: 0.1,
        transactions: [],
      },
      deposit_actions: withCallData(action, callData),
    });
    const [card, ...rest] = await depositCards(details, Date.parse('2026-01-01T12:00:00Z'));
    expect(rest).toEqual([]);
    const text = replyText(card!);
    expect(text).toContain('tap Pay from wallet, connect your wallet and approve the one transaction it shows');
    expect(text).not.toContain(TO);
    expect(text).not.toContain(callData.slice(0, 24));
    expect(text).not.toMatch(/Send exactly/);
  });
});
