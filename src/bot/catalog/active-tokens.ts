import type { Destination, RouteToken } from '../../layerswap/schemas.js';

/** Tokens of a destination that can be received now. */
export const activeTokens = (d: Destination): RouteToken[] => d.tokens.filter((t) => t.status !== 'inactive' && t.status !== 'not_found');
