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

/**
 * The sandbox's test token (solc 0.8.24, --optimize), from this source:
 *
 *   contract Token {
 *     string public name; string public symbol; uint8 public decimals; uint256 public totalSupply;
 *     mapping(address => uint256) public balanceOf;
 *     mapping(address => mapping(address => uint256)) public allowance;
 *     event Transfer(address indexed from, address indexed to, uint256 value);
 *     event Approval(address indexed owner, address indexed spender, uint256 value);
 *     constructor(string memory n, string memory s, uint8 d, uint256 supply) {
 *       name = n; symbol = s; decimals = d; totalSupply = supply;
 *       balanceOf[msg.sender] = supply; emit Transfer(address(0), msg.sender, supply);
 *     }
 *     function transfer(address to, uint256 value) external returns (bool) { _move(msg.sender, to, value); return true; }
 *     function approve(address spender, uint256 value) external returns (bool) {
 *       allowance[msg.sender][spender] = value; emit Approval(msg.sender, spender, value); return true;
 *     }
 *     function transferFrom(address from, address to, uint256 value) external returns (bool) {
 *       uint256 allowed = allowance[from][msg.sender]; require(allowed >= value, "allowance");
 *       if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
 *       _move(from, to, value); return true;
 *     }
 *     function _move(address from, address to, uint256 value) private {
 *       require(balanceOf[from] >= value, "balance");
 *       balanceOf[from] -= value; balanceOf[to] += value; emit Transfer(from, to, value);
 *     }
 *   }
 */
const TOKEN_BYTECODE =
  '0x608060405234801562000010575f80fd5b506040516200096438038062000964833981016040819052620000339162000172565b5f62000040858262000281565b5060016200004f848262000281565b506002805460ff191660ff84161790556003819055335f818152600460209081526040808320859055518481527fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a3505050506200034d565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112620000d5575f80fd5b81516001600160401b0380821115620000f257620000f2620000b1565b604051601f8301601f19908116603f011681019082821181831017156200011d576200011d620000b1565b81604052838152602092508660208588010111156200013a575f80fd5b5f91505b838210156200015d57858201830151818301840152908201906200013e565b5f602085830101528094505050505092915050565b5f805f806080858703121562000186575f80fd5b84516001600160401b03808211156200019d575f80fd5b620001ab88838901620000c5565b95506020870151915080821115620001c1575f80fd5b50620001d087828801620000c5565b935050604085015160ff81168114620001e7575f80fd5b6060959095015193969295505050565b600181811c908216806200020c57607f821691505b6020821081036200022b57634e487b7160e01b5f52602260045260245ffd5b50919050565b601f8211156200027c57805f5260205f20601f840160051c81016020851015620002585750805b601f840160051c820191505b8181101562000279575f815560010162000264565b50505b505050565b81516001600160401b038111156200029d576200029d620000b1565b620002b581620002ae8454620001f7565b8462000231565b602080601f831160018114620002eb575f8415620002d35750858301515b5f19600386901b1c1916600185901b17855562000345565b5f85815260208120601f198616915b828110156200031b57888601518255948401946001909101908401620002fa565b50858210156200033957878501515f19600388901b60f8161c191681555b505060018460011b0185555b505050505050565b610609806200035b5f395ff3fe608060405234801561000f575f80fd5b5060043610610090575f3560e01c8063313ce56711610063578063313ce567146100ff57806370a082311461011e57806395d89b411461013d578063a9059cbb14610145578063dd62ed3e14610158575f80fd5b806306fdde0314610094578063095ea7b3146100b257806318160ddd146100d557806323b872dd146100ec575b5f80fd5b61009c610182565b6040516100a99190610448565b60405180910390f35b6100c56100c03660046104af565b61020d565b60405190151581526020016100a9565b6100de60035481565b6040519081526020016100a9565b6100c56100fa3660046104d7565b610279565b60025461010c9060ff1681565b60405160ff90911681526020016100a9565b6100de61012c366004610510565b60046020525f908152604090205481565b61009c610329565b6100c56101533660046104af565b610336565b6100de610166366004610530565b600560209081525f928352604080842090915290825290205481565b5f805461018e90610561565b80601f01602080910402602001604051908101604052809291908181526020018280546101ba90610561565b80156102055780601f106101dc57610100808354040283529160200191610205565b820191905f5260205f20905b8154815290600101906020018083116101e857829003601f168201915b505050505081565b335f8181526005602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906102679086815260200190565b60405180910390a35060015b92915050565b6001600160a01b0383165f908152600560209081526040808320338452909152812054828110156102dd5760405162461bcd60e51b8152602060048201526009602482015268616c6c6f77616e636560b81b60448201526064015b60405180910390fd5b5f198114610313576102ef83826105ad565b6001600160a01b0386165f9081526005602090815260408083203384529091529020555b61031e85858561034b565b506001949350505050565b6001805461018e90610561565b5f61034233848461034b565b50600192915050565b6001600160a01b0383165f9081526004602052604090205481111561039c5760405162461bcd60e51b815260206004820152600760248201526662616c616e636560c81b60448201526064016102d4565b6001600160a01b0383165f90815260046020526040812080548392906103c39084906105ad565b90915550506001600160a01b0382165f90815260046020526040812080548392906103ef9084906105c0565b92505081905550816001600160a01b0316836001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef8360405161043b91815260200190565b60405180910390a3505050565b5f602080835283518060208501525f5b8181101561047457858101830151858201604001528201610458565b505f604082860101526040601f19601f8301168501019250505092915050565b80356001600160a01b03811681146104aa575f80fd5b919050565b5f80604083850312156104c0575f80fd5b6104c983610494565b946020939093013593505050565b5f805f606084860312156104e9575f80fd5b6104f284610494565b925061050060208501610494565b9150604084013590509250925092565b5f60208284031215610520575f80fd5b61052982610494565b9392505050565b5f8060408385031215610541575f80fd5b61054a83610494565b915061055860208401610494565b90509250929050565b600181811c9082168061057557607f821691505b60208210810361059357634e487b7160e01b5f52602260045260245ffd5b50919050565b634e487b7160e01b5f52601160045260245ffd5b8181038181111561027357610273610599565b808201808211156102735761027361059956fea2646970667358221220ddb91295488e771cbd95aa84acb850765310d53b38818b4604bf85ac0492d0a964736f6c63430008180033' as const;

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
