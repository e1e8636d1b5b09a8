import { NetworkListSchema, type Network } from '../../../src/layerswap/schemas.js';
import { listNetworks } from '../../../src/sandbox/catalog-handlers.js';

/** The sandbox's catalogue (real names, chain ids, tokens) as the client would parse it, for pure tests. */
export const NETWORKS: Network[] = NetworkListSchema.parse(listNetworks(new URLSearchParams()));
