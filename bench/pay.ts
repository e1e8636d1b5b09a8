import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { createPublicClient, createWalletClient, erc20Abi, http, parseEther, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../src/config.js';
import { createRuntime } from '../src/app/runtime.js';
import { startWeb } from '../src/app/web.js';
import { startTrackingWorkers } from '../src/app/messengers.js';
import type { ChatTarget, MessageRef } from '../src/contracts/incoming.js';
import type { Messenger } from '../src/contracts/messenger.js';
import { replyText, type Reply } from '../src/contracts/reply.js';
import { RedisHistoryStore } from '../src/bot/history/store.js';
import { signLink } from '../src/pay/access.js';
import { DEFAULT_PAGE_DIR } from '../src/pay/server.js';
import { CHROMIUM, launchChromium, openPage, testWallet } from '../test/pay/browser.js';
import { emptySection, type Section } from './report.js';
import { fmt, spread } from './stats.js';

/**
 * Part 8, the pay page: tap "Pay" in the page (headless Chromium, the injected test wallet on the
 * sandbox's local EVM chain, which mines a block per transaction) until the creator's chat gets
 * "Deposit seen" from the real web process, tracking and chain watcher; the page's first
 * contentful paint on loopback; the bundle's size, gzipped, by part (esbuild's metafile).
 */
const ORIGIN = 'https://pay.bench';
const SECRET = 'bench-pay-link-secret-0123456789abcdefgh';
const USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';

export async function runPay(root: string, redisUrl: string, prefix: string, repeats: number): Promise<Section> {
  const s = emptySection(9, 'Pay page');
  if (!existsSync(CHROMIUM)) {
    s.skipped = `${CHROMIUM} is missing (apt-get install chromium)`;
    return s;
  }
  // Built where the web process compiled beside this file looks for it (src/pay/server.ts).
  const { buildPayPage } = (await import(
    pathToFileURL(join(root, 'scripts/build-page.mjs')).href
  )) as typeof import('../scripts/build-page.mjs');
  const meta = await buildPayPage(root, DEFAULT_PAGE_DIR);
  const parts = new Map<string, number>();
  const out = Object.values(meta.outputs)[0];
  for (const [file, v] of Object.entries(out?.inputs ?? {})) {
    const part = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(file)?.[1] ?? 'swapbot page';
    parts.set(part, (parts.get(part) ?? 0) + v.bytesInOutput);
  }
  const script = readFileSync(join(DEFAULT_PAGE_DIR, 'page.js'));
  const gz = gzipSync(script).length;

  const seen: Array<{ at: number; text: string }> = [];
  const record = (reply: Reply): MessageRef => {
    seen.push({ at: performance.now(), text: replyText(reply) });
    return { platform: 'console', chatId: 'bench', messageId: String(seen.length) };
  };
  const messenger: Messenger = {
    platform: 'console',
    send: async (_t: ChatTarget, r: Reply) => record(r),
    edit: async (_ref: MessageRef, r: Reply) => record(r),
  };
  const config = loadConfig({
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `${prefix}-pay`,
    PORT: '0',
    SANDBOX_CHAIN: '1',
    SANDBOX_DEPOSIT_DELAY_MS: 'off',
    PAY_PUBLIC_URL: ORIGIN,
    PAY_LINK_SECRET: SECRET,
    POLL_FAST_MS: '1000',
    POLL_SLOW_MS: '2000',
    LOG_LEVEL: 'silent',
  });
  const { default: pino } = await import('pino');
  const rt = await createRuntime(config, pino({ level: 'silent' }), 'start');
  const browser = await launchChromium();
  const toSeen: number[] = [];
  const paints: number[] = [];
  try {
    const web = await startWeb(rt, { alwaysServeHttp: true });
    await startTrackingWorkers(rt, { console: messenger });
    const local = `http://127.0.0.1:${web.port}`;
    const rpc = rt.sandbox!.chain!.url;
    const chain = {
      id: 31337,
      name: 'local',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpc] } },
    };
    const funder = createWalletClient({ chain, account: privateKeyToAccount(rt.sandbox!.chain!.fundedKey), transport: http(rpc) });
    const pub = createPublicClient({ chain, transport: http(rpc) });
    const history = new RedisHistoryStore(rt.redis, config.REDIS_PREFIX);
    for (let i = 0; i < repeats; i++) {
      const details = await rt.api.createSwap({
        source_network: 'ARBITRUM_MAINNET',
        source_token: 'USDC',
        destination_network: 'BASE_MAINNET',
        destination_token: 'USDC',
        destination_address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
        amount: 50,
        use_deposit_address: true,
      });
      const id = details.swap.id;
      await history.add('console', 'bench', { swapId: id, createdAt: Date.now(), summary: 'bench' });
      const chat: ChatTarget = { platform: 'console', chatId: 'bench', chatKind: 'private' };
      await rt.tracking.service.follow(id, chat, { userId: 'bench', creator: true });
      const key = generatePrivateKey();
      const to = privateKeyToAccount(key).address;
      await pub.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to, value: parseEther('1') }) });
      await pub.waitForTransactionReceipt({
        hash: await funder.writeContract({ address: USDC, abi: erc20Abi, functionName: 'transfer', args: [to, parseUnits('100', 6)] }),
      });
      const link = signLink({ platform: 'console', userId: 'bench', swapId: id, exp: Math.floor(Date.now() / 1000) + 600 }, SECRET);
      const { context, page } = await openPage(browser, { origin: ORIGIN, local, wallet: testWallet(key, rpc) });
      await page.goto(`${ORIGIN}/pay/#t=${link}`);
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      paints.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN));
      const from = seen.length;
      const tapped = performance.now();
      await page.getByRole('button', { name: 'Pay 50 USDC' }).click();
      const deadline = tapped + 60_000;
      while (!seen.slice(from).some((m) => m.text.includes('Deposit seen') && m.text.includes(id)) && performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const hit = seen.slice(from).find((m) => m.text.includes('Deposit seen') && m.text.includes(id));
      toSeen.push(hit ? hit.at - tapped : Number.NaN);
      await context.close();
    }
  } finally {
    await browser.close();
    await rt.close();
  }
  const seenS = spread(toSeen.map((ms) => ms / 1000));
  const paint = spread(paints);
  s.rows.push(
    { figure: 'tap Pay -> chat says "Deposit seen"', unit: 's', value: seenS },
    { figure: 'first contentful paint (loopback)', unit: 'ms', value: paint },
    { figure: 'page script, gzipped', unit: 'KB', value: spread([gz / 1024]) },
  );
  s.targets.push(
    { text: 'tap Pay -> "Deposit seen": median <= 3 s', measured: `${fmt(seenS.median)} s`, pass: seenS.median <= 3 },
    { text: 'tap Pay -> "Deposit seen": worst <= 8 s', measured: `${fmt(seenS.max)} s`, pass: seenS.max <= 8 },
    { text: 'first paint <= 1 s on loopback', measured: `${fmt(paint.max)} ms`, pass: paint.max <= 1000 },
    { text: 'page script <= 300 KB gzipped', measured: `${fmt(gz / 1024)} KB`, pass: gz <= 300 * 1024 },
  );
  const byPart = [...parts].sort((a, b) => b[1] - a[1]).map(([p, b]) => `${p} ${fmt(b / 1024)} KB`);
  s.notes.push(
    `${repeats} payments of 50 USDC through the page (signed link, console chat), one at a time, each in a fresh browser context; the local chain mines a block per transaction and the sandbox reads its head every second.`,
    `Page script ${fmt(script.length / 1024)} KB minified, ${fmt(gz / 1024)} KB gzipped; by part, before gzip: ${byPart.join(', ')}. No wallet connector library is bundled (EIP-6963 injected wallets only).`,
  );
  return s;
}
