import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  createTransactionMessage,
  getAddressEncoder,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  lamports,
  none,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  some,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  AccountState,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getMintEncoder,
  getMintSize,
  getTokenEncoder,
  getTokenSize,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { parseUnits } from 'viem';
import { startLocalSolana, type LocalSolana } from '../chain/solana/local-chain.js';
import { createSolanaWatcher } from '../chain/solana/watcher.js';
import type { ChainWatcher, SeenTransfer } from '../chain/watcher.js';
import { NETWORKS } from './catalog.js';
import type { SwapRecord } from './lifecycle.js';

/**
 * The sandbox's Solana network on a real local chain (`--chain`): LiteSVM behind the JSON-RPC the
 * watcher reads (chain/solana/local-chain.ts). Each catalogue SPL token's mint address (USDC,
 * USDT: the real mainnet addresses, so the catalogue stays as it is) holds a real mint whose
 * supply the funded account has; deposit addresses are real Solana addresses (a key derived from
 * the swap id); the simulated deposit is a real transfer (SOL, or the token into the deposit
 * address's associated token account, created in the same transaction); the sandbox sees it with
 * the bot's own Solana watcher.
 */

export interface SandboxSolana {
  readonly url: string;
  readonly genesisHash: string;
  /** The funded account's secret key: 64 bytes (seed then public key) in base58, as wallets import it. */
  readonly fundedKey: string;
  readonly fundedAddress: string;
  readonly local: LocalSolana;
  /** The newest block height the sandbox's watcher read. */
  head(): number;
  depositAddress(swapId: string): string;
  sendDeposit(rec: SwapRecord, amountText?: string, token?: SwapRecord['request']['route']['from']['token']): Promise<string>;
  watch(rec: SwapRecord): void;
  close(): Promise<void>;
}

const b58 = getBase58Decoder();
const seed = (text: string) => createHash('sha256').update(text).digest();
/** PKCS#8 DER prefix of an Ed25519 private key: the 32-byte seed follows. */
const ED25519_PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 public key (a Solana address) of a 32-byte seed, synchronously. */
function solanaAddressOf(secret: Uint8Array): string {
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8, secret]), format: 'der', type: 'pkcs8' });
  return b58.decode(createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32));
}

export async function startSandboxSolana(
  opts: { blockMs?: number; pollMs?: number },
  onDeposit: (swapId: string, t: SeenTransfer) => void,
): Promise<SandboxSolana> {
  const local = await startLocalSolana({ blockMs: opts.blockMs ?? 1000 });
  const fundedSeed = seed('swapbot sandbox solana funded');
  const signer: KeyPairSigner = await createKeyPairSignerFromPrivateKeyBytes(fundedSeed);
  const funded = signer.address;
  const svm = local.svm;
  const rent = (size: number) => lamports(svm.minimumBalanceForRentExemption(BigInt(size)));
  const empty = new Uint8Array(0);
  svm.setAccount({
    address: funded,
    lamports: lamports(10n ** 18n),
    programAddress: address('11111111111111111111111111111111'),
    data: empty,
    executable: false,
    space: 0n,
  });
  const solana = NETWORKS.filter((n) => n.type === 'solana');
  for (const t of new Map(solana.flatMap((n) => n.tokens.filter((k) => k.contract).map((k) => [k.contract as string, k]))).values()) {
    const mint = address(t.contract as string);
    const supply = parseUnits('1000000000', t.decimals);
    const mintData = getMintEncoder().encode({
      mintAuthority: some(funded),
      supply,
      decimals: t.decimals,
      isInitialized: true,
      freezeAuthority: none(),
    });
    svm.setAccount({
      address: mint,
      lamports: rent(getMintSize()),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      data: new Uint8Array(mintData),
      executable: false,
      space: BigInt(getMintSize()),
    });
    const [ata] = await findAssociatedTokenPda({ owner: funded, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    const tokenData = getTokenEncoder().encode({
      mint,
      owner: funded,
      amount: supply,
      delegate: none(),
      state: AccountState.Initialized,
      isNative: none(),
      delegatedAmount: 0n,
      closeAuthority: none(),
    });
    svm.setAccount({
      address: ata,
      lamports: rent(getTokenSize()),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      data: new Uint8Array(tokenData),
      executable: false,
      space: BigInt(getTokenSize()),
    });
  }

  let head = 0;
  const watcher: ChainWatcher = createSolanaWatcher({
    rpcs: new Map(solana.map((n) => [n.name, local.url])),
    pollMs: opts.pollMs ?? 1000,
    lookback: 0,
    events: {
      accept: (_e, t) => t.value > 0n,
      transfer: (e, t) => onDeposit(e.swapId, t),
      head: (_n, h) => void (head = Math.max(head, h)),
      health: () => undefined,
    },
  });
  // Its own chain tells of each block: a deposit is seen at once.
  const unpoke = local.onBlock(() => watcher.poke?.());
  const rpc = createSolanaRpc(local.url);
  // One sender: the funded account's transfers go out one at a time.
  let sending: Promise<unknown> = Promise.resolve();

  const transfer = async (to: Address, token: { contract: string | null; decimals: number }, value: bigint): Promise<string> => {
    const instructions: Instruction[] = [];
    if (!token.contract) instructions.push(getTransferSolInstruction({ source: signer, destination: to, amount: value }));
    else {
      const mint = address(token.contract);
      const [source] = await findAssociatedTokenPda({ owner: funded, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const [destination] = await findAssociatedTokenPda({ owner: to, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      instructions.push(await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: signer, owner: to, mint }));
      instructions.push(
        getTransferCheckedInstruction({ source, mint, destination, authority: signer, amount: value, decimals: token.decimals }),
      );
    }
    const { value: latest } = await rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(signer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const signed = await signTransactionMessageWithSigners(message);
    return String(await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send());
  };

  return {
    url: local.url,
    genesisHash: local.genesisHash,
    fundedKey: b58.decode(Buffer.concat([fundedSeed, Buffer.from(getAddressEncoder().encode(funded))])),
    fundedAddress: funded,
    local,
    head: () => head,
    depositAddress: (swapId) => solanaAddressOf(seed(`swapbot sandbox deposit:${swapId}`)),
    watch(rec) {
      const network = rec.request.route.from.network;
      // Both flows: a wallet transfer pays this swap's own address too (solana-transfer.ts).
      if (network.type !== 'solana') return;
      const token = rec.request.route.from.token;
      watcher.watch({
        swapId: rec.id,
        network: network.name,
        address: rec.depositAddress,
        token: { symbol: token.symbol, contract: token.contract, decimals: token.decimals },
        depth: 1,
      });
    },
    sendDeposit(rec, amountText, other) {
      const token = other ?? rec.request.route.from.token;
      const value = parseUnits(amountText ?? rec.request.amount.text, token.decimals);
      const send = sending.then(() => transfer(address(rec.depositAddress), token, value));
      sending = send.catch(() => undefined);
      return send;
    },
    async close() {
      unpoke();
      await watcher.close();
      await local.close();
    },
  };
}

/**
 * With --chain, the catalogue's Solana network names the local chain as its node_url and its
 * genesis hash as its chain_id (the watcher checks getGenesisHash against it); the other networks
 * as `base` says.
 */
export function withLocalSolana(
  base: (this: unknown, key: string, value: unknown) => unknown,
  solana: SandboxSolana | undefined,
): (this: unknown, key: string, value: unknown) => unknown {
  return function (this: unknown, key, value) {
    if (!solana || (this as { type?: unknown }).type !== 'solana') return base.call(this, key, value);
    return key === 'node_url' ? solana.url : key === 'chain_id' ? solana.genesisHash : value;
  };
}
