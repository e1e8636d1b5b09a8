import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type * as Edr from '@nomicfoundation/edr';
import { listen, readBody } from '../http.js';

/**
 * A real local EVM node for the sandbox and the tests: Hardhat's EDR (a Rust EVM shipped as a
 * prebuilt binary inside its npm package, no toolchain at install or run time) run in-process,
 * served as JSON-RPC over HTTP on a loopback port, so the bot reaches it exactly like any RPC node.
 * Transactions are mined at once (automine); `mine()` adds empty blocks (confirmations).
 */

/** Well-known development keys (Hardhat's and Anvil's first accounts): public, never hold real funds. */
export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
] as const;

const DEV_BALANCE = 10n ** 24n; // 1,000,000 ETH

export interface LocalNode {
  /** http://127.0.0.1:port */
  readonly url: string;
  readonly chainId: number;
  /** A funded account's private key (DEV_KEYS[0]). */
  readonly fundedKey: `0x${string}`;
  /** Mines `blocks` empty blocks. */
  mine(blocks?: number): Promise<void>;
  /** Calls `listener` after each request that may have added a block (a transaction, a mine); returns its removal. */
  onBlock(listener: () => void): () => void;
  /** Stops answering (in-flight requests are cut): an RPC that dies. */
  close(): Promise<void>;
}

// EDR's context must be created once per process.
let context: Promise<{ edr: typeof Edr; ctx: Edr.EdrContext }> | undefined;
function edrContext() {
  context ??= (async () => {
    const edr = createRequire(import.meta.url)('@nomicfoundation/edr') as typeof Edr;
    const ctx = new edr.EdrContext();
    await ctx.registerProviderFactory(edr.L1_CHAIN_TYPE, edr.l1ProviderFactory());
    return { edr, ctx };
  })();
  return context;
}

export async function startLocalNode(opts: { port?: number; chainId?: number } = {}): Promise<LocalNode> {
  const { edr, ctx } = await edrContext();
  const chainId = opts.chainId ?? 31337;
  const hardfork = edr.l1HardforkLatest();
  const { privateKeyToAddress } = await import('viem/accounts');
  const genesis = [
    ...edr.l1GenesisState(hardfork),
    ...DEV_KEYS.map((k) => ({ address: Buffer.from(privateKeyToAddress(k).slice(2), 'hex'), balance: DEV_BALANCE })),
  ];
  const provider = await ctx.createProvider(
    edr.L1_CHAIN_TYPE,
    {
      allowBlocksWithSameTimestamp: true,
      allowUnlimitedContractSize: false,
      bailOnCallFailure: false,
      bailOnTransactionFailure: false,
      chainId: BigInt(chainId),
      coinbase: Buffer.alloc(20, 0xc0),
      defaultTransactionGasLimit: 16_000_000n,
      genesisState: genesis,
      hardfork: edr.l1HardforkToString(hardfork),
      initialBaseFeePerGas: 1_000_000_000n,
      minGasPrice: 0n,
      mining: { autoMine: true, memPool: { order: edr.MineOrdering.Priority } },
      network: { genesisBlockGasLimit: 30_000_000n },
      networkId: BigInt(chainId),
      observability: {},
      ownedAccounts: [...DEV_KEYS],
      precompileOverrides: [],
    },
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => undefined },
    { subscriptionCallback: () => undefined },
    new edr.ContractDecoder(),
  );
  const listeners = new Set<() => void>();
  const call = async (body: string): Promise<string> => {
    // EDR insists on \`params\`, which JSON-RPC 2.0 lets a client leave out (viem does).
    const req = JSON.parse(body) as Record<string, unknown>;
    const res = await provider.handleRequest(JSON.stringify({ params: [], ...req }));
    // Automine: a transaction is a block. Listeners hear of it after the answer is on its way.
    if (typeof req.method === 'string' && MINING.has(req.method))
      setImmediate(() => {
        for (const l of listeners) l();
      });
    return typeof res.data === 'string' ? res.data : JSON.stringify(res.data);
  };
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const body = (await readBody(req, 4 * 1024 * 1024)).toString('utf8');
        const parsed = JSON.parse(body) as unknown;
        // EDR answers one request at a time; a batch is answered element by element.
        const out = Array.isArray(parsed)
          ? `[${(await Promise.all(parsed.map((p) => call(JSON.stringify(p))))).join(',')}]`
          : await call(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end(out);
      } catch (err) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32700, message: err instanceof Error ? err.message : 'bad request' },
          }),
        );
      }
    })();
  });
  const listening = await listen(server, { port: opts.port ?? 0, host: '127.0.0.1' });
  return {
    url: listening.url,
    chainId,
    fundedKey: DEV_KEYS[0],
    async mine(blocks = 1) {
      await call(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hardhat_mine', params: [`0x${blocks.toString(16)}`] }));
    },
    onBlock(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => listening.close({ force: true }),
  };
}

const MINING = new Set(['eth_sendRawTransaction', 'eth_sendTransaction', 'hardhat_mine', 'evm_mine']);

/** The ERC-20 interface of the sandbox's test tokens (their code: src/sandbox/eip3009-token.ts). */
export const TOKEN_ABI = [
  {
    type: 'constructor',
    inputs: [
      { name: 'n', type: 'string' },
      { name: 's', type: 'string' },
      { name: 'd', type: 'uint8' },
      { name: 'supply', type: 'uint256' },
    ],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'transfer',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
    stateMutability: 'nonpayable',
  },
  { type: 'function', name: 'balanceOf', inputs: [{ name: '', type: 'address' }], outputs: [{ type: 'uint256' }], stateMutability: 'view' },
  {
    type: 'event',
    name: 'Transfer',
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
] as const;
