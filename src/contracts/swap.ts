/**
 * A swap as far as the contracts carry it: tracking hands the service's answer to the core's
 * renderer without reading it for them. layerswap/schemas.ts's `SwapDetails` is one; naming it here
 * (and not importing it) keeps contracts/ the ground floor, importing nothing of the rest.
 */
export interface SwapData {
  readonly swap: { readonly id: string; readonly status: string };
}
