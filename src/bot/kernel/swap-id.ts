import { isSwapId } from '../../contracts/swap-id.js';
import { fail, msg, ok, type Result } from './problem.js';

/** A swap id is a UUID: checked before any request. Accepts it without dashes too. */
export function parseSwapId(raw: string | undefined): Result<string> {
  const input = (raw ?? '').trim();
  if (input === '')
    return fail(
      'swap_id.missing',
      msg('problem.swapId.missing'),
      msg('problem.swapId.missingHint', { example: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b' }),
    );
  const dashed = /^[0-9a-f]{32}$/i.test(input)
    ? `${input.slice(0, 8)}-${input.slice(8, 12)}-${input.slice(12, 16)}-${input.slice(16, 20)}-${input.slice(20)}`
    : input;
  if (!isSwapId(dashed))
    return fail(
      'swap_id.invalid',
      msg('problem.swapId.invalid'),
      msg('problem.swapId.invalidHint', { example: '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b' }),
    );
  return ok(dashed.toLowerCase());
}

/**
 * The start of a swap id, as cards show it ("Swap 13a8b6b4"): 8 or more of its hex digits (with
 * its dashes or without), short of a whole id. Returns the digits, lower case, without dashes;
 * undefined for anything else. Which swap it names depends on who asks (follow/lookup/short-id.ts).
 */
export function parseSwapIdPrefix(raw: string | undefined): string | undefined {
  const input = (raw ?? '').trim().toLowerCase();
  if (!/^[0-9a-f]{8}(?:-?[0-9a-f])*-?$/.test(input)) return undefined;
  const digits = input.replace(/-/g, '');
  return digits.length < 32 ? digits : undefined;
}
