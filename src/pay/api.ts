import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatUnits, type Hex } from 'viem';
import { readBody } from '../http.js';
import { asError, type Logger } from '../log.js';
import { isSwapId } from '../contracts/swap-id.js';
import type { LayerswapApi } from '../layerswap/api.js';
import type { DepositAction, SwapDetails } from '../layerswap/schemas.js';
import { phaseOfSwap } from '../layerswap/phase.js';
import { resolveLocale, t, type Locale } from '../i18n/index.js';
import type { LanguageStore } from '../i18n/store.js';
import type { HistoryStore } from '../bot/kernel/stores.js';
import { checkInitData, verifyLink, type Refusal } from './access.js';
import type { PayStore, PaySession } from './sessions.js';
import { payView } from './view.js';
import { evmTransaction } from './transaction.js';
import { authorize } from './gasless.js';
import { signRequest } from './typed-data.js';
import { solanaTransaction } from './solana.js';
import { evmShortfall } from './evm-balance.js';
import { solanaShortfall } from './solana-balance.js';
import { tonReader, tonShortfall, tonTransfer } from './ton.js';
import { payingFamily, sentHashOf, type Shortfall } from './families.js';

const nodeUrlOf = (details: SwapDetails): string | undefined => {
  const url = (details.swap.source_network as { node_url?: unknown } | null | undefined)?.node_url;
  return typeof url === 'string' ? url : undefined;
};

/**
 * The pay page's JSON endpoints (under /pay/api/). The page never holds the API key: it proves who
 * it is once (Telegram initData, or a one-time signed link) and gets a short session bound to that
 * creator and that swap; everything after goes through the session. Every refusal is a JSON
 * `{error, message}` in plain words that says nothing about the swap.
 */
export interface PayApiDeps {
  api: LayerswapApi;
  store: PayStore;
  history: Pick<HistoryStore, 'entry'>;
  languages: Pick<LanguageStore, 'get'>;
  botToken: string | undefined;
  linkSecret: string;
  initDataMaxAgeSeconds: number;
  linkTtlSeconds: number;
  /** WalletConnect for EVM wallets, when a project id is configured (the page says plainly when it is not). */
  walletConnect?: { projectId: string; relayUrl: string };
  /** A TON wallet app through TON Connect's HTTP bridge: its bridge, universal link and name (TONCONNECT_*). */
  tonBridge?: TonBridge;
  logger: Logger;
  now: () => number;
}

export interface TonBridge {
  bridgeUrl: string;
  universalLink: string;
  name: string;
}

const MAX_BODY = 8_192;

type Answer = { status: number; body: unknown };

const refusal = (status: number, why: Refusal | 'no_session', locale: Locale): Answer => ({
  status,
  body: { error: why, message: t(locale, `pay.refused.${why}`) },
});

export function payApi(deps: PayApiDeps) {
  const send = (res: ServerResponse, a: Answer): void =>
    void res.writeHead(a.status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(a.body));

  async function open(body: Record<string, unknown>): Promise<Answer> {
    const now = deps.now();
    let who: { platform: PaySession['platform']; userId: string; swapId: string; tag?: string };
    if (typeof body.initData === 'string') {
      const guessLocale = resolveLocale(new URLSearchParams(body.initData).get('user')?.match(/"language_code":"([\w-]+)"/)?.[1]);
      if (!deps.botToken) return refusal(403, 'bad_signature', guessLocale);
      const checked = checkInitData(body.initData, deps.botToken, deps.initDataMaxAgeSeconds, now);
      if (!checked.ok) return refusal(403, checked.why, guessLocale);
      const swapId = typeof body.swap === 'string' ? body.swap.toLowerCase() : '';
      if (!isSwapId(swapId)) return refusal(403, 'not_creator', guessLocale);
      who = {
        platform: 'telegram',
        userId: checked.value.id,
        swapId,
        ...(checked.value.languageCode ? { tag: checked.value.languageCode } : {}),
      };
    } else if (typeof body.link === 'string') {
      const checked = verifyLink(body.link, deps.linkSecret, now);
      if (!checked.ok) return refusal(403, checked.why, resolveLocale(undefined));
      if (!(await deps.store.spendNonce(checked.value.nonce, deps.linkTtlSeconds))) return refusal(403, 'used', resolveLocale(undefined));
      who = checked.value;
    } else return refusal(400, 'malformed', resolveLocale(undefined));
    const locale = (await deps.languages.get('user', who.platform, who.userId)) ?? resolveLocale(who.tag);
    // Only the creator: history knows who made each swap through the bot. A guessed id is not theirs.
    if (!(await deps.history.entry(who.platform, who.userId, who.swapId))) return refusal(403, 'not_creator', locale);
    const session = await deps.store.openSession({ platform: who.platform, userId: who.userId, swapId: who.swapId, locale });
    const view = await viewOf({ platform: who.platform, userId: who.userId, swapId: who.swapId, locale });
    return { status: 200, body: { session, walletConnect: deps.walletConnect ?? false, tonBridge: deps.tonBridge ?? false, ...view } };
  }

  async function viewOf(s: PaySession): Promise<Record<string, unknown>> {
    const details = await deps.api.getSwap(s.swapId, { exclude_deposit_actions: true });
    // A gasless swap (no deposit address) says so on its Pay button: its one action is a `sign`.
    const gasless =
      details.swap.use_deposit_address !== true &&
      (await deps.api.getDepositActions(s.swapId).then(
        (actions) => actions.some((a) => a.type === 'sign'),
        () => false,
      ));
    return { view: { ...payView(details, deps.now(), s.locale as Locale), gasless } };
  }

  /** Takes the swap's one payment slot and answers the transaction to sign, or why not. */
  async function prepare(s: PaySession, id: string, body: Record<string, unknown>): Promise<Answer> {
    const locale = s.locale as Locale;
    const from = typeof body.source_address === 'string' ? body.source_address : '';
    const details = await deps.api.getSwap(s.swapId, { exclude_deposit_actions: true });
    const family = payingFamily(details.swap.source_network?.type);
    // Not a family the page pays (no card offers it): nothing is taken.
    if (!family) return { status: 422, body: { error: 'not_evm', message: t(locale, 'pay.page.notEvm') } };
    if (!family.isAddress(from)) return { status: 400, body: { error: 'bad_address', message: t(locale, family.notAddress) } };
    if (phaseOfSwap(details).kind !== 'waiting') return closed(details.swap.status ?? 'unknown', locale);
    const taken = await deps.store.take(s.swapId, id);
    if (!taken.ok) return { status: 409, body: { error: 'taken', message: t(locale, 'pay.page.taken'), slot: taken.slot.state } };
    try {
      const actions = await deps.api.getDepositActions(s.swapId, { source_address: from });
      if (family.name === 'solana') return await prepareSolana(s, id, details, from, actions);
      if (family.name === 'ton') return await prepareTon(s, id, details, from, actions);
      const sign = actions.find((a) => a.type === 'sign');
      if (sign) {
        // Gasless: the wallet signs; the slot stays taken until the signature is handed over (authorize).
        const request = signRequest(sign, { from, chainId: Number(details.swap.source_network?.chain_id) });
        if (request) return { status: 200, body: { sign: request } };
        await deps.store.release(s.swapId, id);
        return { status: 422, body: { error: 'not_evm', message: t(locale, 'pay.page.notEvm') } };
      }
      const tx = evmTransaction(actions, details.swap.source_network?.chain_id ?? undefined);
      if (!tx) {
        await deps.store.release(s.swapId, id);
        return { status: 422, body: { error: 'not_evm', message: t(locale, 'pay.page.notEvm') } };
      }
      const nodeUrl = nodeUrlOf(details);
      return await handOver(s, id, details, { ok: true, value: tx }, 'EVM', async (value) => ({
        body: { tx: value },
        low: nodeUrl ? await evmShortfall(nodeUrl, from as Hex, value) : undefined,
      }));
    } catch (err) {
      await deps.store.release(s.swapId, id);
      throw err;
    }
  }

  /** The action's own transaction, handed over verbatim once it is read as this swap's payment (solana.ts) and the wallet can pay it. */
  async function prepareSolana(s: PaySession, id: string, details: SwapDetails, from: string, actions: DepositAction[]): Promise<Answer> {
    const got = await solanaTransaction(actions, { from, network: details.swap.source_network?.name ?? '' });
    const nodeUrl = nodeUrlOf(details);
    return handOver(s, id, details, got, 'Solana', async (tx) => ({
      body: { solana: tx },
      low: nodeUrl ? await solanaShortfall(nodeUrl, from, tx) : undefined,
    }));
  }

  /** The TON message built from the action once it is read as this swap's payment (ton.ts), when the wallet can pay it. */
  async function prepareTon(s: PaySession, id: string, details: SwapDetails, from: string, actions: DepositAction[]): Promise<Answer> {
    const reader = tonReader(nodeUrlOf(details) ?? '');
    const got = await tonTransfer(actions, details, from, deps.now(), reader.jettonWalletOf);
    return handOver(s, id, details, got, 'TON', async (tx) => ({ body: { ton: tx.request }, low: await tonShortfall(reader, from, tx) }));
  }

  /** Hands over what the wallet sends, unless it was refused or the wallet cannot pay it (the slot is then free again). */
  async function handOver<T>(
    s: PaySession,
    id: string,
    details: SwapDetails,
    got: { ok: true; value: T } | { ok: false; why: 'no_transaction' | 'not_this_swap' },
    family: string,
    check: (value: T) => Promise<{ body: unknown; low: Shortfall | undefined }>,
  ): Promise<Answer> {
    const locale = s.locale as Locale;
    if (got.ok) {
      const { body, low } = await check(got.value);
      if (!low) return { status: 200, body };
      await deps.store.release(s.swapId, id);
      return { status: 422, body: { error: 'low', message: shortWords(details, low, locale) } };
    }
    await deps.store.release(s.swapId, id);
    deps.logger.warn({ swapId: s.swapId, why: got.why }, `pay: the ${family} deposit action was not handed to the wallet`);
    const key = got.why === 'not_this_swap' ? 'pay.page.notThisSwap' : 'pay.page.noTransaction';
    return { status: 422, body: { error: got.why, message: t(locale, key) } };
  }

  /** The wallet's shortfall in words (the EVM page says the same from an injected wallet's own answers). */
  function shortWords(details: SwapDetails, low: Shortfall, locale: Locale): string {
    if (low.kind === 'fee') return t(locale, 'pay.page.lowGas', { symbol: details.swap.source_network?.token?.symbol ?? '' });
    const token = details.swap.source_token;
    const words = (units: bigint) => {
      const amount = formatUnits(units, token?.decimals ?? 9);
      const usd = token?.price_in_usd;
      return `${amount} ${token?.symbol ?? ''}${typeof usd === 'number' ? ` ($${(Number(amount) * usd).toFixed(2)})` : ''}`;
    };
    return t(locale, 'pay.page.low', { have: words(low.have), need: words(low.need) });
  }

  const closed = (status: string, locale: Locale): Answer => ({
    status: 409,
    body: { error: 'closed', status, message: t(locale, 'pay.page.closed', { status }) },
  });

  async function sent(s: PaySession, id: string, body: Record<string, unknown>): Promise<Answer> {
    // What the wallet sent, as its family reads it (TON Connect answers the signed message: contracts/pay-families.ts).
    const hash = sentHashOf(body);
    if (!hash) return { status: 400, body: { error: 'bad_hash' } };
    if (!(await deps.store.sent(s.swapId, id, hash)))
      return { status: 409, body: { error: 'taken', message: t(s.locale as Locale, 'pay.page.taken') } };
    // As Layerswap's app does: tell the service where the deposit is; its errors are only logged.
    await deps.api
      .speedUpDeposit(s.swapId, { transaction_id: hash })
      .catch((err: unknown) =>
        deps.logger.warn({ err: asError(err), swapId: s.swapId }, 'pay: deposit_speedup failed (the chain watcher still sees the deposit)'),
      );
    deps.logger.info({ swapId: s.swapId, hash }, 'pay: a deposit was sent from the wallet page');
    return { status: 200, body: { ok: true, hash } };
  }

  return async (req: IncomingMessage, res: ServerResponse, action: string): Promise<void> => {
    try {
      if (req.method !== 'POST') return send(res, { status: 405, body: { error: 'method' } });
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse((await readBody(req, MAX_BODY)).toString('utf8') || '{}');
        body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
      } catch {
        return send(res, refusal(400, 'malformed', resolveLocale(undefined)));
      }
      if (action === 'open') return send(res, await open(body));
      const id = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const s = await deps.store.session(id);
      if (!s) return send(res, refusal(401, 'no_session', resolveLocale(undefined)));
      if (action === 'view')
        return send(res, {
          status: 200,
          body: { walletConnect: deps.walletConnect ?? false, tonBridge: deps.tonBridge ?? false, ...(await viewOf(s)) },
        });
      if (action === 'prepare') return send(res, await prepare(s, id, body));
      if (action === 'release') {
        await deps.store.release(s.swapId, id);
        return send(res, { status: 200, body: { ok: true } });
      }
      if (action === 'sent') return send(res, await sent(s, id, body));
      if (action === 'authorize') {
        const details = await deps.api.getSwap(s.swapId, { exclude_deposit_actions: true });
        const chainId = Number(details.swap.source_network?.chain_id);
        return send(res, await authorize(deps, s, id, body, chainId));
      }
      return send(res, { status: 404, body: { error: 'not found' } });
    } catch (err) {
      deps.logger.warn({ err: asError(err) }, 'pay: a request failed');
      if (!res.headersSent)
        send(res, { status: 502, body: { error: 'unavailable', message: t(resolveLocale(undefined), 'pay.refused.unavailable') } });
    }
  };
}
