import { createWalletClient, custom, encodeFunctionData, erc20Abi, formatUnits, type Hex } from 'viem';
import { applyTheme, openWalletLink, telegramLaunch } from './telegram.js';
import { startSolana } from './solana.js';
import { discoverWallets, isRejection, type Eip1193, type WalletChoice } from './wallet.js';
import { pairWallet, showOpenButton } from './wc-pairing.js';

/**
 * The pay page: proves who opened it (Telegram initData, or the one-time link in the fragment),
 * shows the swap's money view, connects an injected wallet, and sends the one transaction the
 * server built from the swap's deposit actions. It holds no key and signs nothing itself; the chat
 * tells the outcome (the chain watcher sees the deposit), so the page may be closed at any time.
 */

interface View {
  swapId: string;
  status: string;
  waiting: boolean;
  fields: Array<{ name: string; value: string }>;
  breakdown: string[];
  depositBy?: number;
  network: { display: string; type: string; chainId?: string; native?: string; walletChain?: string };
  token: { symbol: string; decimals: number; usd?: number };
  amount: string;
  /** Paid by a signature (a gasless swap): no transaction, no gas. */
  gasless?: boolean;
  words: Record<string, string>;
}

/** A gasless swap's authorization to sign, verbatim from its `sign` action (src/pay/typed-data.ts). */
interface Sign {
  typedData: { types: Record<string, Array<{ name: string; type: string }>>; primaryType: string; domain: object; message: object };
  chainId: number;
  token: Hex;
  amountUnits: string;
}

interface Tx {
  chainId: number;
  to: Hex;
  value: string;
  data?: Hex;
  token?: Hex;
  amountUnits: string;
  gas?: string;
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const say = (template: string | undefined, vars: Record<string, string> = {}) =>
  (template ?? '').replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? `{${k}}`);

let session = '';
let view: View;
/** `injected`: a wallet in this browser, which answers balance and gas-price reads and switches networks (a WalletConnect one does neither). */
let wallet: ({ provider: Eip1193; address: Hex } & Reach) | undefined;
/** `link`, `name`: a WalletConnect wallet's own link (to bring it forward while a request waits there) and name. */
type Reach = { injected: boolean; link?: string; name?: string };
/** WalletConnect's project and relay, when the bot has a project id. */
let walletConnect: { projectId: string; relayUrl: string } | undefined;
let paying = false;

async function call(action: string, body: unknown = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`/pay/api/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(session ? { authorization: `Bearer ${session}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

function refuse(message: string): void {
  $('title').textContent = '—';
  $('swap').hidden = true;
  $('wallet').hidden = true;
  const r = $('refusal');
  r.textContent = message;
  r.hidden = false;
}

function message(text: string, bad = false): void {
  const m = $('message');
  m.textContent = text;
  m.className = bad ? 'bad' : '';
}

function showView(): void {
  const w = view.words;
  $('title').textContent = w.title ?? '';
  const dl = $('fields');
  dl.replaceChildren();
  for (const f of view.fields) {
    const dt = document.createElement('dt');
    dt.textContent = f.name;
    const dd = document.createElement('dd');
    dd.textContent = f.value;
    dl.append(dt, dd);
  }
  $('breakdown').replaceChildren(
    ...view.breakdown.map((b) => {
      const li = document.createElement('li');
      li.textContent = b;
      return li;
    }),
  );
  $('swap').hidden = false;
  tick();
  if (!view.waiting) return refuse(say(w.closed, { status: view.status }));
  $('wallet').hidden = false;
}

function tick(): void {
  if (view.depositBy === undefined) return;
  const left = Math.max(0, view.depositBy - Date.now());
  const s = Math.floor(left / 1000);
  const text = `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  $('countdown').textContent = say(view.words.timeLeft, { time: text });
}

function showWallets(list: WalletChoice[]): void {
  const box = $('wallets');
  box.replaceChildren();
  for (const choice of list) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'connect';
    b.textContent = list.length > 1 ? `${view.words.connect ?? ''} · ${choice.name}` : (view.words.connect ?? '');
    b.addEventListener('click', () => void connect(choice.provider));
    box.append(b);
  }
  if (walletConnect) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'connect';
    b.textContent = view.words.walletConnect ?? 'WalletConnect';
    b.addEventListener('click', () => void connectWalletConnect());
    box.append(b);
  }
  const none = walletConnect ? view.words.noWalletWalletConnect : view.words.noWallet;
  $('note').textContent = [list.length === 0 ? none : '', walletConnect ? '' : view.words.walletConnectOff].filter(Boolean).join(' ');
}

async function connect(provider: Eip1193, how: Reach = { injected: true }): Promise<void> {
  try {
    const [address] = (await provider.request({ method: 'eth_requestAccounts' })) as Hex[];
    if (!address) return;
    wallet = { provider, address, ...how };
    $('account').textContent = say(view.words.connected, { address });
    $('wallets').hidden = true;
    $('wc').hidden = true;
    await checkChain();
  } catch (err) {
    message(isRejection(err) ? (view.words.rejected ?? '') : say(view.words.failed, { reason: reasonOf(err) }), true);
  }
}

const wantChain = () => Number(view.network.chainId);

async function checkChain(): Promise<boolean> {
  if (!wallet) return false;
  const on = Number(await wallet.provider.request({ method: 'eth_chainId' }));
  const right = on === wantChain();
  const sw = $('switch');
  // A WalletConnect session is for the chains the wallet approved: it switches in the wallet, not from here.
  sw.hidden = right || !wallet.injected;
  sw.textContent = say(view.words.switch, { network: view.network.display });
  $('pay').hidden = !right;
  $('pay').textContent = say(view.gasless ? view.words.payGasless : view.words.pay, { amount: `${view.amount} ${view.token.symbol}` });
  if (!right) message(say(view.words.wrongChain, { network: view.network.display }), true);
  else message('');
  return right;
}

async function switchChain(): Promise<void> {
  if (!wallet) return;
  try {
    await wallet.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${wantChain().toString(16)}` }] });
  } catch (err) {
    if (isRejection(err)) return message(view.words.rejected ?? '', true);
    return message(say(view.words.failed, { reason: reasonOf(err) }), true);
  }
  await checkChain();
}

/** What the wallet holds against what the transaction needs (the amount, plus gas in the native token). */
async function shortfall(tx: Tx): Promise<string | undefined> {
  if (!wallet?.injected) return undefined;
  const p = wallet.provider;
  const from = wallet.address;
  const native = BigInt((await p.request({ method: 'eth_getBalance', params: [from, 'latest'] })) as string);
  if (tx.token) {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [from] });
    const have = BigInt((await p.request({ method: 'eth_call', params: [{ to: tx.token, data }, 'latest'] })) as string);
    if (have < BigInt(tx.amountUnits)) {
      const d = view.token.decimals;
      return say(view.words.low, { have: inToken(formatUnits(have, d)), need: inToken(formatUnits(BigInt(tx.amountUnits), d)) });
    }
  }
  const gas = BigInt(tx.gas ?? '21000');
  const price = BigInt((await p.request({ method: 'eth_gasPrice' })) as string);
  if (native < BigInt(tx.value) + gas * price) {
    if (BigInt(tx.value) > 0n && native < BigInt(tx.value))
      return say(view.words.low, { have: inToken(formatUnits(native, 18)), need: inToken(formatUnits(BigInt(tx.value), 18)) });
    return say(view.words.lowGas, { symbol: view.network.native ?? 'ETH' });
  }
  return undefined;
}

/** An amount in the swap's token, with its worth in USD when the price is known: "1 USDC ($1.00)". */
function inToken(amount: string): string {
  const usd = view.token.usd;
  const worth = usd === undefined ? '' : ` ($${(Number(amount) * usd).toFixed(2)})`;
  return `${amount} ${view.token.symbol}${worth}`;
}

async function pay(): Promise<void> {
  if (paying || !wallet) return;
  paying = true;
  const button = $('pay') as HTMLButtonElement;
  button.disabled = true;
  let prepared = false;
  try {
    if (!(await checkChain())) return;
    const got = await call('prepare', { source_address: wallet.address });
    if (got.status !== 200) return message(String(got.json.message ?? got.json.error ?? got.status), true);
    prepared = true;
    if (got.json.sign) {
      prepared = !(await signAndAuthorize(got.json.sign as Sign));
      return;
    }
    const tx = got.json.tx as Tx;
    const low = await shortfall(tx);
    if (low) return message(low, true);
    message(view.words.confirmInWallet ?? '');
    offerWalletLink();
    const client = createWalletClient({ account: wallet.address, transport: custom(wallet.provider) });
    const hash = await client.sendTransaction({
      account: wallet.address,
      // viem asks the wallet for its chain first and refuses to send on another one (switched in the wallet meanwhile).
      chain: {
        id: tx.chainId,
        name: view.network.display,
        nativeCurrency: { name: 'native', symbol: view.network.native ?? 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [] } },
      },
      to: tx.to,
      value: BigInt(tx.value),
      ...(tx.data ? { data: tx.data } : {}),
      ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
    });
    prepared = false;
    // Sent is sent: whatever happens to this notice, the page never says otherwise (the chat follows the chain).
    button.hidden = true;
    message(say(view.words.sent, { hash }));
    await call('sent', { hash }).catch(() => undefined);
    return;
  } catch (err) {
    message(isRejection(err) ? (view.words.rejected ?? '') : say(view.words.failed, { reason: reasonOf(err) }), true);
  } finally {
    // Nothing was sent: free the swap's payment slot so the user can try again.
    if (prepared) await call('release').catch(() => undefined);
    paying = false;
    button.disabled = false;
    $('wc-open').hidden = true;
  }
}

/**
 * Gasless: the wallet signs the authorization (eth_signTypedData_v4 through viem), the server hands
 * it to Layerswap. An expired one comes back fresh from the server and is signed once more. True
 * when it was handed over (the swap's slot is then kept; nothing more to free).
 */
async function signAndAuthorize(first: Sign): Promise<boolean> {
  if (!wallet) return false;
  let sign = first;
  const low = await tokenShortfall(sign.token, sign.amountUnits);
  if (low) {
    message(low, true);
    return false;
  }
  const client = createWalletClient({ account: wallet.address, transport: custom(wallet.provider) });
  message(say(view.words.signInWallet, { amount: `${view.amount} ${view.token.symbol}` }));
  offerWalletLink();
  for (let round = 0; round < 3; round++) {
    const signature = await client.signTypedData({
      account: wallet.address,
      ...(sign.typedData as Parameters<typeof client.signTypedData>[0]),
    });
    const got = await call('authorize', { source_address: wallet.address, signature, typedData: sign.typedData });
    if (got.status === 200) {
      $('pay').hidden = true;
      message(view.words.authorized ?? '');
      return true;
    }
    if (got.json.error !== 'expired' || !got.json.sign) {
      message(String(got.json.message ?? got.json.error ?? got.status), true);
      // A refusal the server already answered for freed the slot; a taken slot is someone else's.
      return got.json.error === 'wrong_signer' || got.json.error === 'refused' || got.json.error === 'taken';
    }
    message(String(got.json.message ?? ''));
    sign = got.json.sign as Sign;
  }
  return false;
}

/** What the wallet holds of the token against the amount (a gasless payment needs no gas). */
async function tokenShortfall(token: Hex, units: string): Promise<string | undefined> {
  if (!wallet?.injected) return undefined;
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [wallet.address] });
  const have = BigInt((await wallet.provider.request({ method: 'eth_call', params: [{ to: token, data }, 'latest'] })) as string);
  if (have >= BigInt(units)) return undefined;
  const d = view.token.decimals;
  return say(view.words.low, { have: inToken(formatUnits(have, d)), need: inToken(formatUnits(BigInt(units), d)) });
}

/** A WalletConnect wallet (wc-pairing.ts): once it approves, the same connect as an injected one, without the balance reads. */
const connectWalletConnect = (): Promise<void> =>
  walletConnect
    ? pairWallet({ setup: { ...walletConnect, chainId: wantChain() }, words: view.words, say, message, reasonOf }, (got) =>
        connect(got.provider, { injected: false, name: got.name, ...(got.link ? { link: got.link } : {}) }),
      )
    : Promise.resolve();

/** While a request waits in a WalletConnect wallet that gave its link: a button that brings it forward. */
function offerWalletLink(): void {
  if (wallet?.link) showOpenButton(say(view.words.walletConnectOpenWallet, { wallet: wallet.name ?? '' }), wallet.link);
}

const reasonOf = (err: unknown): string => {
  const e = err as { shortMessage?: string; message?: string } | null;
  return String(e?.shortMessage ?? e?.message ?? err).slice(0, 160);
};

async function start(): Promise<void> {
  const launch = telegramLaunch();
  applyTheme(launch);
  const query = new URLSearchParams(location.search);
  const link = new URLSearchParams(location.hash.slice(1)).get('t');
  const slot = `swapbot-pay:${query.get('swap') ?? 'link'}`;
  const kept = sessionStorage.getItem(slot);
  let opened: { status: number; json: Record<string, unknown> };
  if (kept) {
    session = kept;
    opened = await call('view');
  } else if (launch.initData) opened = await call('open', { initData: launch.initData, swap: query.get('swap') ?? '' });
  else if (link) opened = await call('open', { link });
  else opened = await call('open', {});
  // The link is spent: keep the session for a reload of this tab, and drop the link from the address bar.
  if (link) history.replaceState(null, '', location.pathname);
  if (opened.status !== 200) {
    sessionStorage.removeItem(slot);
    return refuse(String(opened.json.message ?? 'Refused.'));
  }
  if (typeof opened.json.session === 'string') {
    session = opened.json.session;
    sessionStorage.setItem(slot, session);
  }
  view = opened.json.view as View;
  showView();
  setInterval(tick, 1000);
  // A Solana swap: Wallet Standard wallets sign and send the action's own transaction (solana.ts);
  // a TON swap: TON Connect's injected wallets send the message the server built (ton.ts).
  const family = {
    network: view.network.display,
    words: view.words,
    say,
    message,
    call,
    payLabel: say(view.words.pay, { amount: `${view.amount} ${view.token.symbol}` }),
  };
  if (view.network.type === 'solana') return startSolana({ ...family, chain: view.network.walletChain ?? 'solana:mainnet' });
  // TON Connect is loaded only for a TON swap (its own chunk of the bundle).
  if (view.network.type === 'ton') {
    const bridge = opened.json.tonBridge as import('./ton.js').TonBridge | false | undefined;
    return (await import('./ton.js')).startTon({ ...family, chain: view.network.walletChain ?? '-239' }, bridge || undefined);
  }
  $('switch').addEventListener('click', () => void switchChain());
  $('pay').addEventListener('click', () => void pay());
  $('wc-open').addEventListener('click', () => openWalletLink($('wc-open').dataset.link ?? ''));
  const wc = opened.json.walletConnect as { projectId?: unknown; relayUrl?: unknown } | false | undefined;
  if (wc && typeof wc.projectId === 'string' && typeof wc.relayUrl === 'string')
    walletConnect = { projectId: wc.projectId, relayUrl: wc.relayUrl };
  discoverWallets(showWallets);
}

void start();
