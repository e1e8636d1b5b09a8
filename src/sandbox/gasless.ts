import { randomBytes } from 'node:crypto';
import { isAddress, isHex, verifyTypedData, type Hex } from 'viem';
import type { SandboxChain } from './chain.js';
import { Fields } from './fields.js';
import { SandboxHttpError, validation } from './http-error.js';
import type { SwapRecord } from './lifecycle.js';
import { toBaseUnits } from './numbers.js';
import type { SandboxClock } from './types.js';
import { slimTokenView, swapNetworkView, type Json } from './views.js';
import { transferAuthorization, type TransferAuthorization } from './gasless-typed-data.js';
import { asViem } from '../layerswap/typed-data.js';

/**
 * Gasless deposits (docs api-reference/gasless-swaps.mdx): a swap created with use_gasless gets a
 * `sign` action built for the wallet that asks (source_address); POST /swaps/{id}/authorize checks
 * the signature against that very typed data (viem verifyTypedData) and, on the sandbox's chain,
 * carries out the EIP-3009 transfer there with a relayer paying the gas, so the deposit is a real
 * transfer the sandbox's chain watch sees like any other. Authorizations last 30 sandbox minutes;
 * a new one is issued when the last expired or another wallet asks.
 */

/** How long a signed authorization stays valid (docs: "a fixed validity window, ~30 minutes"). */
const WINDOW_MS = 30 * 60_000;

type AuthStatus = 'Initiated' | 'Published' | 'Completed' | 'Expired';

interface Issued {
  typedData: TransferAuthorization;
  /** Sandbox time after which it is expired. */
  until: number;
  status: AuthStatus;
  txHash?: Hex;
}

export class GaslessDesk {
  private readonly issued = new Map<string, Issued>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly chain: () => SandboxChain | undefined,
    /** Without a chain: the deposit is simulated (the store's own deposit). */
    private readonly simulate: (swapId: string) => void,
  ) {}

  /** The `sign` action for this wallet; without one, the action with no typed data ("the sign action can't be built"). */
  signAction(rec: SwapRecord, sourceAddress: string | undefined): Json {
    const { route, amount } = rec.request;
    const token = route.from.token;
    const units = toBaseUnits(amount.text, token.decimals);
    const base = {
      order: 0,
      type: 'sign',
      to_address: rec.depositAddress,
      amount: amount.value,
      amount_in_base_units: units,
      network: swapNetworkView(route.from.network),
      token: slimTokenView(token),
      fee_token: slimTokenView(route.from.network.native),
    };
    if (!sourceAddress || !isAddress(sourceAddress) || !token.contract) return base;
    let held = this.current(rec.id);
    if (!held || held.status === 'Expired' || held.typedData.message.from.toLowerCase() !== sourceAddress.toLowerCase()) {
      if (held && held.status !== 'Initiated' && held.status !== 'Expired') throw alreadyAuthorized();
      const now = this.clock.now();
      // Signed on a real chain whose clock may lag the sandbox's: the window holds there too.
      const validBefore = Math.floor(Math.max(now, Date.now()) / 1000) + WINDOW_MS / 1000;
      held = {
        typedData: transferAuthorization({
          chainId: this.chain()?.chainId ?? Number(route.from.network.chain_id),
          token: { symbol: token.symbol, contract: token.contract },
          from: sourceAddress,
          to: rec.depositAddress,
          value: units,
          validBefore,
          nonce: `0x${randomBytes(32).toString('hex')}`,
        }),
        until: now + WINDOW_MS,
        status: 'Initiated',
      };
      this.issued.set(rec.id, held);
    }
    const m = held.typedData.message;
    return { ...base, valid_after: 0, valid_before: Number(m.validBefore), nonce: m.nonce, typed_data: held.typedData };
  }

  /** POST /swaps/{id}/authorize {signature, signer_address}. */
  async authorize(rec: SwapRecord, body: Record<string, unknown>): Promise<Json> {
    const f = Fields.fromBody(body);
    const signature = f.string('signature', true);
    const signer = f.string('signer_address', true);
    if (!isHex(signature) || signature.length !== 132) throw validation('signature must be a 65-byte hex signature.');
    if (!isAddress(signer)) throw validation('signer_address is not a valid EVM address.');
    const held = rec.request.useGasless ? this.current(rec.id) : undefined;
    if (!held) throw new SandboxHttpError('VALIDATION_ERROR', 'No authorization request found; fetch the deposit actions first.');
    if (held.status === 'Published' || held.status === 'Completed') throw alreadyAuthorized();
    if (held.status === 'Expired')
      throw new SandboxHttpError(
        'AUTHORIZATION_EXPIRED',
        'The authorization has expired: fetch the deposit actions again and sign once more.',
      );
    const { typedData } = held;
    if (signer.toLowerCase() !== typedData.message.from.toLowerCase())
      throw new SandboxHttpError('INVALID_SIGNATURE', 'signer_address is not the address these deposit actions were built for.');
    if (!(await verifyTypedData({ ...asViem(typedData), address: signer, signature })))
      throw new SandboxHttpError('INVALID_SIGNATURE', 'The signature does not recover to signer_address.');
    const chain = this.chain();
    if (!chain) {
      held.status = 'Completed';
      this.simulate(rec.id);
      return { status: held.status };
    }
    const m = typedData.message;
    const token = typedData.domain.verifyingContract as Hex;
    if ((await chain.balanceOf(token, m.from as Hex)) < BigInt(m.value))
      throw new SandboxHttpError('INSUFFICIENT_BALANCE', "The signer's balance does not cover the deposit amount.");
    held.status = 'Published';
    try {
      held.txHash = await chain.executeAuthorization(
        token,
        'TransferWithAuthorization',
        {
          from: m.from as Hex,
          to: m.to as Hex,
          value: BigInt(m.value),
          validAfter: 0n,
          validBefore: BigInt(m.validBefore),
          nonce: m.nonce as Hex,
        },
        signature,
      );
    } catch (err) {
      held.status = 'Initiated';
      throw new SandboxHttpError('AUTHORIZATION_FAILED', `The paymaster could not make the deposit: ${reason(err)}`);
    }
    held.status = 'Completed';
    return { status: held.status, transaction: { transaction_id: held.txHash, status: 'Completed' } };
  }

  /** GET /swaps/{id}/authorize. */
  status(rec: SwapRecord): Json {
    const held = this.current(rec.id);
    if (!held) throw new SandboxHttpError('NOT_FOUND', 'No authorization request found; fetch the deposit actions first.');
    return { status: held.status, ...(held.txHash ? { transaction: { transaction_id: held.txHash, status: held.status } } : {}) };
  }

  /** The sandbox's control: the swap's open authorization expires now (tests of "expired → sign again"). */
  expire(swapId: string): void {
    const held = this.issued.get(swapId);
    if (held?.status === 'Initiated') held.until = this.clock.now();
  }

  private current(swapId: string): Issued | undefined {
    const held = this.issued.get(swapId);
    if (held?.status === 'Initiated' && this.clock.now() >= held.until) held.status = 'Expired';
    return held;
  }
}

const alreadyAuthorized = () => new SandboxHttpError('CONFLICT', 'This swap is already authorized.');

const reason = (err: unknown): string => {
  const e = err as { shortMessage?: string; message?: string } | null;
  return String(e?.shortMessage ?? e?.message ?? err).slice(0, 200);
};
