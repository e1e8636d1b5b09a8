import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createPublicClient, createWalletClient, erc20Abi, http, parseEther, parseUnits, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { WebSocket } from 'ws';
import { WAIT_MS } from '../support/wait.js';

/**
 * Debian's headless Chromium driven by playwright-core, with a test wallet injected into the page:
 * an EIP-1193 provider announced through EIP-6963 whose calls cross into Node (exposeFunction),
 * where a viem account on the sandbox's local EVM chain signs and sends. The wallet's chain id is
 * its own state (the page sees the chain id the sandbox's catalogue gives Arbitrum One, the local
 * node's LOCAL_CHAIN_ID, and can be asked to switch), while every transaction lands on that one
 * local chain, which stands in for all the sandbox's EVM networks.
 */
export const CHROMIUM = '/usr/bin/chromium';
/** The local node's chain id, which the sandbox's catalogue names for its EVM networks with --chain. */
export const LOCAL_CHAIN_ID = 31337;
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium's Local Network Access refuses a public page's requests to loopback. A WebSocket can be
 * carried by this process (routeWebSocket), but an EventSource stream cannot (a route answers with a
 * whole body): a browser that is to reach a local stand-in over HTTP streams (TON Connect's bridge)
 * is launched with the check off (`localNetwork`), and its page's requests routed there.
 */
const LOCAL_NETWORK = '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,BlockInsecurePrivateNetworkRequests';

/** A fresh profile per launch (playwright's launch uses a new temporary user-data-dir). */
export const launchChromium = (opts: { localNetwork?: boolean } = {}): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: opts.localNetwork ? [...FLAGS, LOCAL_NETWORK] : FLAGS, headless: true });

export interface TestWallet {
  address: Hex;
  chainId: number;
  /** The next eth_sendTransaction is declined as a person would (EIP-1193 code 4001). */
  rejectNext: boolean;
  /** Set: eth_sendTransaction waits for it before sending (a wallet left open on the phone). */
  hold?: Promise<void>;
  sent: Hex[];
  calls: string[];
  /** Typed-data signatures given (eth_signTypedData_v4: a gasless payment). */
  signed: Hex[];
  /** Set: typed data is signed with this key instead (a wallet that signs with another account). */
  signWith?: Hex;
  /** Called before each typed-data signature (a test moves the service's clock meanwhile). */
  beforeSign?: () => void | Promise<void>;
}

export function testWallet(
  key: Hex,
  rpcUrl: string,
  chainId = LOCAL_CHAIN_ID,
): TestWallet & { handle(method: string, params: unknown[]): Promise<unknown> } {
  const account = privateKeyToAccount(key);
  const transport = http(rpcUrl, { retryCount: 0 });
  const pub = createPublicClient({ transport });
  const state: TestWallet = { address: account.address, chainId, rejectNext: false, sent: [], calls: [], signed: [] };
  return Object.assign(state, {
    async handle(method: string, params: unknown[]): Promise<unknown> {
      state.calls.push(method);
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [state.address];
        case 'eth_chainId':
          return `0x${state.chainId.toString(16)}`;
        case 'wallet_switchEthereumChain':
          state.chainId = Number((params[0] as { chainId: string }).chainId);
          return null;
        case 'eth_signTypedData_v4': {
          await state.beforeSign?.();
          // The payload as the page sent it (JSON, numbers as text), signed as a wallet does.
          const signer = state.signWith ? privateKeyToAccount(state.signWith) : account;
          const signature = await signer.signTypedData(JSON.parse(params[1] as string) as Parameters<typeof account.signTypedData>[0]);
          state.signed.push(signature);
          return signature;
        }
        case 'eth_sendTransaction': {
          if (state.rejectNext) {
            state.rejectNext = false;
            return { error: { code: 4001, message: 'User rejected the request.' } };
          }
          await state.hold;
          const tx = params[0] as { to: Hex; value?: Hex; data?: Hex; gas?: Hex };
          const localChain = await pub.getChainId();
          const wallet = createWalletClient({
            account,
            chain: {
              id: localChain,
              name: 'local',
              nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
              rpcUrls: { default: { http: [rpcUrl] } },
            },
            transport,
          });
          const hash = await wallet.sendTransaction({
            to: tx.to,
            value: tx.value ? BigInt(tx.value) : 0n,
            ...(tx.data ? { data: tx.data } : {}),
            ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
          });
          state.sent.push(hash);
          return hash;
        }
        default:
          return pub.request({ method: method as 'eth_blockNumber', params: params as never });
      }
    },
  });
}

/**
 * The page's side of the test wallet and of Telegram: installed before any of the page's scripts run.
 * `injected: false`: no wallet in the browser (a phone in Telegram). Links the page opens through
 * Telegram are kept in `__openedLinks` (WebApp.openLink) and `__openedTelegramLinks` (openTelegramLink).
 */
function initScript(arg: { initData?: string; colorScheme: 'light' | 'dark'; injected: boolean }): void {
  // Runs in the page (a browser global scope); typed here without the DOM library.
  const win = globalThis as unknown as {
    dispatchEvent(e: unknown): void;
    addEventListener(type: string, f: () => void): void;
  };
  const w = globalThis as unknown as Record<string, unknown>;
  if (arg.initData !== undefined)
    w.Telegram = {
      WebApp: {
        initData: arg.initData,
        colorScheme: arg.colorScheme,
        themeParams:
          arg.colorScheme === 'dark'
            ? {
                bg_color: '#17212b',
                text_color: '#f5f5f5',
                hint_color: '#708499',
                button_color: '#5288c1',
                button_text_color: '#ffffff',
                secondary_bg_color: '#232e3c',
              }
            : {
                bg_color: '#ffffff',
                text_color: '#000000',
                hint_color: '#999999',
                button_color: '#2481cc',
                button_text_color: '#ffffff',
                secondary_bg_color: '#efeff3',
              },
        ready() {},
        expand() {},
        openLink(url: string) {
          ((w.__openedLinks ??= []) as string[]).push(url);
        },
        openTelegramLink(url: string) {
          ((w.__openedTelegramLinks ??= []) as string[]).push(url);
        },
      },
    };
  if (!arg.injected) return;
  const bridge = w.__testWallet as (m: string, p: unknown[]) => Promise<unknown>;
  const provider = {
    async request(a: { method: string; params?: unknown[] }) {
      const out = (await bridge(a.method, a.params ?? [])) as { error?: { code: number; message: string } } | unknown;
      const e = (out as { error?: { code: number; message: string } } | null)?.error;
      if (e) throw Object.assign(new Error(e.message), { code: e.code });
      return out;
    },
    on() {},
    removeListener() {},
  };
  const announce = () =>
    win.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: Object.freeze({
          info: { uuid: 'b1e7a1c2-test-wallet', name: 'Test Wallet', icon: 'data:,', rdns: 'test.wallet' },
          provider,
        }),
      }),
    );
  win.addEventListener('eip6963:requestProvider', announce);
  announce();
}

/** Each context's requests the carrying route could not fetch (a failure's report). */
const carried = new WeakMap<BrowserContext, string[]>();

/**
 * A page at Telegram's phone size whose https://pay.test/ requests are answered by the web process
 * on loopback (a Mini App must be https; the process itself serves http behind the operator's TLS).
 */
export async function openPage(
  browser: Browser,
  opts: {
    origin: string;
    local: string;
    wallet?: ReturnType<typeof testWallet>;
    initData?: string;
    colorScheme?: 'light' | 'dark';
    /** False: no wallet is injected into the page (default: the test wallet is). */
    injected?: boolean;
    /** WebSockets the page opens to `from` (a public wss:// origin) are carried to `to` (a local server). */
    relay?: { from: string; to: string };
    /**
     * Requests the page makes to `from` (a public https origin) go to `to` (a local https server
     * with a certificate of its own, which this context accepts): the browser must be launched with
     * `localNetwork`, as the responses stream (EventSource).
     */
    bridge?: { from: string; to: string };
  },
): Promise<{ context: BrowserContext; page: Page }> {
  const scheme = opts.colorScheme ?? 'light';
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    colorScheme: scheme,
    ...(opts.bridge ? { ignoreHTTPSErrors: true } : {}),
  });
  // Playwright's waits give up after 30 s by default: a wall-clock budget a loaded machine eats (a
  // WalletConnect payment crossed it beside two busy loops). Its waits are hang detectors, as ours.
  context.setDefaultTimeout(WAIT_MS);
  const failures: string[] = [];
  carried.set(context, failures);
  await context.route(`${opts.origin}/**`, async (route) => {
    const url = route.request().url().replace(opts.origin, opts.local);
    // A request on a kept-alive socket the server has just closed (its keep-alive is 2 s) meets
    // ECONNRESET before it is read: Playwright sends it again (a browser does the same), on the next
    // pooled socket, which may have been closed at the same moment, so a few times.
    const response = await route.fetch({ url, maxRetries: 3, timeout: WAIT_MS }).catch((err: unknown) => {
      failures.push(`${route.request().method()} ${url}: ${String(err).split('\n')[0]}`);
      return undefined;
    });
    // A failure (or the test closed the page under a request in flight): the page's own request
    // fails too, rather than wait for an answer that never comes.
    if (response) await route.fulfill({ response }).catch(() => undefined);
    else await route.abort('failed').catch(() => undefined);
  });
  await context.route(
    (url) => !url.href.startsWith(opts.origin),
    (route) => route.abort(),
  );
  const bridge = opts.bridge;
  // Registered after the catch-all abort, so tried before it.
  if (bridge)
    await context.route(
      (url) => url.href.startsWith(bridge.from),
      (route) => route.continue({ url: route.request().url().replace(bridge.from, bridge.to) }),
    );
  const relay = opts.relay;
  // Chromium refuses a public page's socket to loopback (Local Network Access): the page dials the
  // public address, and each socket is carried over a socket of this process to the local server.
  if (relay)
    await context.routeWebSocket(
      (url) => url.href.startsWith(relay.from),
      (route) => {
        const server = new WebSocket(route.url().replace(relay.from, relay.to));
        const early: string[] = [];
        server.on('open', () => early.splice(0).forEach((m) => server.send(m)));
        server.on('message', (data) => route.send(String(data)));
        server.on('close', () => void route.close().catch(() => undefined));
        server.on('error', () => void route.close().catch(() => undefined));
        route.onMessage((m) => (server.readyState === WebSocket.OPEN ? server.send(String(m)) : early.push(String(m))));
        route.onClose(() => server.close());
      },
    );
  const wallet = opts.wallet;
  if (wallet) await context.exposeFunction('__testWallet', (m: string, p: unknown[]) => wallet.handle(m, p));
  else await context.exposeFunction('__testWallet', () => ({ error: { code: 4100, message: 'no wallet' } }));
  await context.addInitScript(initScript, {
    ...(opts.initData !== undefined ? { initData: opts.initData } : {}),
    colorScheme: scheme,
    injected: opts.injected ?? true,
  });
  const page = await context.newPage();
  return { context, page };
}

/** The sandbox's local EVM chain (it stands in for every EVM network of its catalogue) as viem takes it. */
export const localChain = (rpc: string) => ({
  id: LOCAL_CHAIN_ID,
  name: 'local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [rpc] } },
});

/** The sandbox's USDC on its local chain (Arbitrum One's address in its catalogue). */
const LOCAL_USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';

/**
 * A person's wallet: a fresh account given `usdc` USDC and `eth` ETH for gas ('0': none, so only a
 * gasless payment can move its money) from the local chain's funded account.
 */
export async function fundedTestWallet(
  rpc: string,
  fundedKey: Hex,
  { usdc = '500', eth = '1' } = {},
): Promise<ReturnType<typeof testWallet>> {
  const chain = localChain(rpc);
  const funder = createWalletClient({ chain, account: privateKeyToAccount(fundedKey), transport: http(rpc) });
  const pub = createPublicClient({ chain, transport: http(rpc) });
  const key = generatePrivateKey();
  const to = privateKeyToAccount(key).address;
  if (eth !== '0') await pub.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to, value: parseEther(eth) }) });
  const paid = await funder.writeContract({
    address: LOCAL_USDC,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, parseUnits(usdc, 6)],
  });
  await pub.waitForTransactionReceipt({ hash: paid });
  return testWallet(key, rpc);
}

/**
 * Waits for `text` on the page; when it never comes, the error carries what the page shows and
 * `state()` (what the wallet and the relay saw), so a failure on a busy machine says where it stopped.
 */
export async function seenOnPage(page: Page, text: RegExp | string, state: () => unknown): Promise<void> {
  try {
    await page.getByText(text).waitFor();
  } catch (err) {
    const shown = await page
      .locator('body')
      .innerText({ timeout: 5_000 })
      .catch(() => '(page unreadable)');
    const failed = carried.get(page.context()) ?? [];
    throw new Error(
      `${String(text)} never shown. The page shows:\n${shown}\nState: ${JSON.stringify({ ...(state() as object), failed })}`,
      {
        cause: err,
      },
    );
  }
}
