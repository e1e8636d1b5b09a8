import type { Network } from '../../layerswap/schemas.js';
import type { Draft } from '../drafts.js';
import { networkLabel } from '../parse/network.js';
import { bold, line, text, type Line } from '../reply.js';
import type { Route } from './route.js';

export const labelOf = (networks: readonly Network[], name: string | undefined): string => {
  if (!name) return '?';
  const n = networks.find((x) => x.name === name);
  return n ? networkLabel(n) : name;
};

/** "100 USDC on Arbitrum One → USDC on Base", naming only what is known so far. */
export function routeSummary(route: Route, networks: readonly Network[]): string {
  const srcToken = route.sourceToken ?? route.pendingSourceToken;
  const dstToken = route.destinationToken ?? route.pendingDestinationToken;
  const send = [route.amount, srcToken].filter(Boolean).join(' ');
  const from = route.sourceNetwork ? (send ? `${send} on ${labelOf(networks, route.sourceNetwork)}` : `From ${labelOf(networks, route.sourceNetwork)}`) : send;
  const to = route.destinationNetwork ? (dstToken ? `${dstToken} on ${labelOf(networks, route.destinationNetwork)}` : labelOf(networks, route.destinationNetwork)) : '';
  return to ? `${from || '?'} → ${to}` : from;
}

/** The progress line every wizard question starts with. */
export function progressLine(draft: Draft, networks: readonly Network[]): Line {
  const started = draft.route.sourceNetwork || draft.route.amount || draft.route.pendingSourceToken || draft.route.destinationNetwork;
  return started ? line(bold('So far: '), text(routeSummary(draft.route, networks))) : line('Let’s set it up step by step.');
}

/** A stable key of the route's checked parts: a changed route must be quoted again. */
export const routeKey = (r: Route): string => [r.amount, r.sourceNetwork, r.sourceToken, r.destinationNetwork, r.destinationToken].join('|');
