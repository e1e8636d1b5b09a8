import { actionButton, type Button } from '../../contracts/reply.js';
import type { Ctx } from '../kernel/context.js';
import { VERBS } from '../kernel/verbs.js';

/** A choice the wizard offers as a button. */
export interface Choice {
  label: string;
  value: string;
}

const CHOICES_PER_PAGE = 12;
const PER_ROW = 3;

/** Short codes for the fields whose choices are buttons (kept short for the 64-byte actions). */
export const FIELD_CODES = { source_network: 'sn', source_token: 'st', destination_network: 'dn', destination_token: 'dt' } as const;
export type ChoiceField = keyof typeof FIELD_CODES;
export function fieldOfCode(code: string | undefined): ChoiceField | undefined {
  return (Object.keys(FIELD_CODES) as ChoiceField[]).find((f) => FIELD_CODES[f] === code);
}

/**
 * One page of choices as rows of buttons, with Prev/Next when there are more: at most 4 rows of
 * 3, leaving the fifth row for navigation and `tail` (Cancel) (Discord allows 5 rows of 5).
 */
export async function choiceRows(
  ctx: Ctx,
  draftId: string,
  field: ChoiceField,
  choices: Choice[],
  page: number,
  tail: Button[] = [],
): Promise<Button[][]> {
  const pages = Math.max(1, Math.ceil(choices.length / CHOICES_PER_PAGE));
  const p = Math.min(Math.max(0, page), pages - 1);
  const shown = choices.slice(p * CHOICES_PER_PAGE, (p + 1) * CHOICES_PER_PAGE);
  const code = FIELD_CODES[field];
  const buttons = await Promise.all(
    shown.map(async (c) => actionButton(c.label, await ctx.codec.encode({ verb: VERBS.pick, args: [draftId, code, c.value] }))),
  );
  const rows: Button[][] = [];
  for (let i = 0; i < buttons.length; i += PER_ROW) rows.push(buttons.slice(i, i + PER_ROW));
  const nav: Button[] = [];
  if (p > 0)
    nav.push(actionButton(ctx.t('list.prev'), await ctx.codec.encode({ verb: VERBS.pageChoices, args: [draftId, code, String(p - 1)] })));
  if (p < pages - 1)
    nav.push(actionButton(ctx.t('list.next'), await ctx.codec.encode({ verb: VERBS.pageChoices, args: [draftId, code, String(p + 1)] })));
  nav.push(...tail);
  if (nav.length > 0) rows.push(nav);
  return rows;
}
