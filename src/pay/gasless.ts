import { isAddress, isHex, recoverTypedDataAddress } from 'viem';
import { ApiError } from '../layerswap/errors.js';
import type { LayerswapApi } from '../layerswap/api.js';
import { asViem } from '../layerswap/typed-data.js';
import { t, type Locale } from '../i18n/index.js';
import type { Logger } from '../log.js';
import type { PayStore, PaySession } from './sessions.js';
import { signRequest, type SignRequest } from './typed-data.js';

/**
 * "Pay without gas": the wallet signed the swap's EIP-712 authorization on the page; the server
 * checks it is that wallet's signature of the payload the page was given, and hands it to
 * Layerswap (POST /swaps/{id}/authorize, with the API key the page never sees). As Layerswap's app
 * does (depositExecution.ts submitGaslessAuthorization): "already authorized" counts as success,
 * and "expired" fetches the deposit actions again and asks the wallet to sign once more.
 */
export interface GaslessDeps {
  api: LayerswapApi;
  store: PayStore;
  logger: Logger;
}

type Answer = { status: number; body: unknown };

/** The signable request for this wallet, fetched anew (after an expiry the service issues a fresh one). */
async function freshSignRequest(api: LayerswapApi, swapId: string, from: string, chainId: number): Promise<SignRequest | undefined> {
  const actions = await api.getDepositActions(swapId, { source_address: from });
  return signRequest(
    actions.find((a) => a.type === 'sign'),
    { from, chainId },
  );
}

export async function authorize(
  deps: GaslessDeps,
  s: PaySession,
  id: string,
  body: Record<string, unknown>,
  chainId: number,
): Promise<Answer> {
  const locale = s.locale as Locale;
  const from = typeof body.source_address === 'string' ? body.source_address : '';
  const signature = typeof body.signature === 'string' ? body.signature : '';
  const held = await deps.store.slot(s.swapId);
  if (!held || held.session !== id || held.state !== 'signing')
    return { status: 409, body: { error: 'taken', message: t(locale, 'pay.page.taken') } };
  if (!isAddress(from) || !isHex(signature)) return { status: 400, body: { error: 'malformed' } };
  // The payload signed must be one this swap's page may ask for, for this wallet (same checks as prepare).
  const sign = signRequest({ type: 'sign', typed_data: body.typedData, ...actionOf(body.typedData) }, { from, chainId });
  if (!sign) return { status: 400, body: { error: 'malformed' } };
  const signer = await recoverTypedDataAddress({ ...asViem(sign.typedData), signature }).catch(() => undefined);
  if (!signer || signer.toLowerCase() !== from.toLowerCase()) {
    await deps.store.release(s.swapId, id);
    return {
      status: 400,
      body: { error: 'wrong_signer', message: t(locale, 'pay.page.wrongSigner', { signer: signer ?? '?', address: from }) },
    };
  }
  try {
    if (!deps.api.authorizeSwap) throw new Error('pay: this API client cannot authorize gasless swaps');
    await deps.api.authorizeSwap(s.swapId, { signature, signer_address: from });
  } catch (err) {
    const said = err instanceof ApiError ? err.message.toLowerCase() : '';
    if (said.includes('expired')) {
      const again = await freshSignRequest(deps.api, s.swapId, from, chainId);
      if (again) return { status: 409, body: { error: 'expired', message: t(locale, 'pay.page.resign'), sign: again } };
    }
    if (!(said.includes('already') && said.includes('authoriz'))) {
      await deps.store.release(s.swapId, id);
      if (err instanceof ApiError)
        return {
          status: 400,
          body: { error: 'refused', message: t(locale, 'pay.page.authRefused', { reason: err.message.slice(0, 160) }) },
        };
      throw err;
    }
  }
  // Authorized: the slot keeps it, so nothing pays this swap again from another tab.
  await deps.store.sent(s.swapId, id, 'authorized');
  deps.logger.info({ swapId: s.swapId }, 'pay: a gasless deposit was authorized from the wallet page');
  return { status: 200, body: { ok: true } };
}

/** The action fields the check compares the payload with, taken from the payload itself (the page has nothing else). */
function actionOf(raw: unknown): { to_address?: string; token?: { symbol: string; contract: string } } {
  const td = raw as { domain?: { verifyingContract?: unknown }; message?: { to?: unknown; spender?: unknown } } | null;
  const to = td?.message?.to ?? td?.message?.spender;
  const contract = td?.domain?.verifyingContract;
  return {
    ...(typeof to === 'string' ? { to_address: to } : {}),
    ...(typeof contract === 'string' ? { token: { symbol: '', contract } } : {}),
  };
}
