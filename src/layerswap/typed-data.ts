import { hashTypedData, type TypedDataDefinition } from 'viem';

/**
 * The EIP-712 payload of a gasless `sign` action (`typed_data`), read as it is: the wallet signs
 * it verbatim (`eth_signTypedData_v4`, as Layerswap's app does), and the hash viem computes over the
 * very same JSON (numbers as text included) is the one the token contract checks. Undefined when
 * it is not a whole payload (no field list for the primary type or the domain, a placeholder
 * address): nothing a wallet should be asked to sign.
 */
export interface TypedDataJson {
  types: Record<string, Array<{ name: string; type: string }>>;
  primaryType: string;
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isFieldList = (v: unknown): v is Array<{ name: string; type: string }> =>
  Array.isArray(v) && v.length > 0 && v.every((f) => isObject(f) && typeof f.name === 'string' && typeof f.type === 'string');

export function readTypedData(raw: unknown): { json: TypedDataJson; digest: `0x${string}` } | undefined {
  if (!isObject(raw) || !isObject(raw.types) || typeof raw.primaryType !== 'string') return undefined;
  if (!isObject(raw.domain) || !isObject(raw.message)) return undefined;
  const types = raw.types;
  if (!Object.values(types).every(isFieldList) || !isFieldList(types[raw.primaryType]) || !isFieldList(types.EIP712Domain))
    return undefined;
  const json = { types, primaryType: raw.primaryType, domain: raw.domain, message: raw.message } as TypedDataJson;
  try {
    // viem checks every field against its type (addresses, sizes) while hashing.
    return { json, digest: hashTypedData(asViem(json)) };
  } catch {
    return undefined;
  }
}

/** The same object, typed for viem's sign/verify/hash (which read numbers given as text as they are). */
export const asViem = (json: TypedDataJson): TypedDataDefinition => json as unknown as TypedDataDefinition;
