/**
 * custom_id values the adapter owns (Discord allows 1-100 characters). Anything else on a
 * component is a core action string and goes to the core as Incoming.action. The "~dc:" prefix
 * keeps the two apart; forged ids are harmless: they only open a modal or echo text to the
 * person who pressed.
 */
const PREFIX = '~dc:';
export const CUSTOM_ID_MAX = 100;

/** A select menu built from a row of more than five action buttons; its values are actions. */
export const selectId = (row: number): string => `${PREFIX}s:${row}`;
/** The modal that asks for free text (Reply.prompt); its single text input. */
export const MODAL_ID = `${PREFIX}m`;
export const MODAL_INPUT_ID = 'value';

export interface PromptSpec {
  label: string;
  placeholder?: string;
  maxLength?: number;
}

export type OwnId =
  | { kind: 'select' }
  | { kind: 'prompt'; prompt: PromptSpec }
  | { kind: 'copy'; text: string }
  | { kind: 'modal' }
  /** Our prefix, but nothing we make: forged or from an older version. */
  | { kind: 'unknown' };

/** The "Enter address" button that opens the modal when it could not be shown straight away. */
export function promptButtonId(prompt: PromptSpec): string {
  const head = `${PREFIX}p:${prompt.maxLength ?? ''}:`;
  return (
    head +
    Array.from(prompt.label)
      .slice(0, 45)
      .join('')
      .slice(0, CUSTOM_ID_MAX - head.length)
  );
}

/** A copy button: pressing it shows the text alone, ephemerally, so it can be copied cleanly. */
export function copyButtonId(text: string): string | undefined {
  const id = `${PREFIX}c:${text}`;
  return id.length <= CUSTOM_ID_MAX ? id : undefined;
}

export function parseOwnId(customId: string): OwnId | undefined {
  if (!customId.startsWith(PREFIX)) return undefined;
  const rest = customId.slice(PREFIX.length);
  if (rest.startsWith('s:')) return { kind: 'select' };
  if (rest === 'm') return { kind: 'modal' };
  if (rest.startsWith('c:')) return { kind: 'copy', text: rest.slice(2) };
  if (rest.startsWith('p:')) {
    const sep = rest.indexOf(':', 2);
    if (sep < 0) return { kind: 'unknown' };
    const max = Number(rest.slice(2, sep));
    const label = rest.slice(sep + 1);
    return { kind: 'prompt', prompt: { label, ...(Number.isInteger(max) && max > 0 ? { maxLength: max } : {}) } };
  }
  return { kind: 'unknown' };
}
