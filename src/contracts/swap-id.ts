/** The one swap-id check: a Layerswap swap id is a UUID (either case; callers lower-case it). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isSwapId(value: string): boolean {
  return UUID.test(value);
}
