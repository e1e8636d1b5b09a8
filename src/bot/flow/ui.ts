import type { Network } from '../../layerswap/schemas.js';
import type { Ctx } from '../context.js';
import type { Draft, Step } from '../drafts.js';
import { problemLine } from '../replies.js';
import { actionButton, deeplinkButton, type Button, type Line } from '../../contracts/reply.js';
import type { RouteExchanges } from './route.js';
import { progressLine } from './summary.js';

/** Pieces every wizard question shares. */
/** A problem to show above the next question (what was wrong with the last answer). */
export interface ShownProblem {
  field?: Step;
  reason: string;
  hint?: string;
  choices?: string[];
}

export interface AdvanceOptions {
  problem?: ShownProblem;
  /** Lines shown before everything else (e.g. "your earlier draft was dropped"). */
  note?: Line[];
  page?: number;
}

export const draftTitle = (d: Draft): string => (d.kind === 'swap' ? 'New swap' : 'New quote');
export const cancelButton = async (ctx: Ctx, d: Draft): Promise<Button> => actionButton('Cancel', await ctx.codec.encode({ verb: 'cx', args: [d.id] }));
/** Group chats get a way to continue privately (addresses are better typed there). */
export const privateButton = (ctx: Ctx, d: Draft): Button[] => (ctx.incoming.chatKind === 'private' ? [] : [deeplinkButton('Continue privately', `d_${d.id}`)]);
/** Wizard replies replace the message whose button was pressed. */
export const modeOf = (ctx: Ctx): 'edit' | 'new' => (ctx.incoming.action && ctx.incoming.messageRef ? 'edit' : 'new');

export function headLines(draft: Draft, networks: readonly Network[], opts: AdvanceOptions, exchanges?: RouteExchanges): Line[] {
  const lines: Line[] = [...(opts.note ?? [])];
  if (opts.problem) lines.push(problemLine(opts.problem));
  lines.push(progressLine(draft, networks, exchanges));
  return lines;
}

