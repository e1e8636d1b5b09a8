import type { CatalogToken } from './model.js';

/**
 * The EIP-712 payload of a gasless deposit as the service hands it out (docs
 * api-reference/gasless-swaps.mdx): types, primaryType, domain and message, every number as text,
 * ready for `eth_signTypedData_v4` as it is. The sandbox asks for an EIP-3009
 * TransferWithAuthorization to the swap's own address (its paymaster's stand-in), which any relayer
 * may submit; the real service asks for a ReceiveWithAuthorization to its paymaster, which only the
 * paymaster may submit. A wallet signs either the same way.
 */

/** The token's EIP-712 domain name: USDC's contracts say "USD Coin"; the sandbox's other tokens their symbol. */
export const eip712Name = (token: Pick<CatalogToken, 'symbol'>): string => (token.symbol === 'USDC' ? 'USD Coin' : token.symbol);

/** An EIP-3009 authorization's fields, as signed (EIP-712) and as the token's functions take them before the signature. */
export const AUTHORIZATION_FIELDS = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const;

export interface AuthorizationTerms {
  chainId: number;
  token: { symbol: string; contract: string };
  from: string;
  to: string;
  value: string;
  validBefore: number;
  nonce: string;
}

export function transferAuthorization(a: AuthorizationTerms) {
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      TransferWithAuthorization: AUTHORIZATION_FIELDS.map((f) => ({ ...f })),
    },
    primaryType: 'TransferWithAuthorization' as const,
    domain: { name: eip712Name(a.token), version: '2', chainId: String(a.chainId), verifyingContract: a.token.contract },
    message: { from: a.from, to: a.to, value: a.value, validAfter: '0', validBefore: String(a.validBefore), nonce: a.nonce },
  };
}

export type TransferAuthorization = ReturnType<typeof transferAuthorization>;
