import { fc, test } from '@fast-check/vitest';
import { LOCALES } from '../../src/i18n/index.js';
import { describe, expect } from 'vitest';
import { historyArb, replay, type History } from '../support/money-histories.js';
import { historyViolations } from '../support/money-rules.js';

/**
 * What the bot tells you about your money (docs/money.md), held by its rules rather than by
 * scenarios: over generated event histories of one swap (service statuses in any order and stale,
 * chain sightings right and wrong, "I've sent it", expiry, refunds, exchanges, refuel), every
 * surface in every language obeys every rule of test/support/money-rules.ts. MONEY_RUNS sets how
 * many histories (a soak: MONEY_RUNS=100000); a failure shrinks to a short, readable history.
 */
const RUNS = Number(process.env.MONEY_RUNS ?? 150);
/** Each history in all five languages (the default), or in one drawn with it (MONEY_ONE_LOCALE=1: a soak 5× the histories). */
const ONE_LOCALE = process.env.MONEY_ONE_LOCALE === '1';

/** A history as a person would read it: one event a line. */
export const describeHistory = (h: History): string =>
  [`world: ${JSON.stringify(h.world)}`, ...h.events.map((e, i) => `${i + 1}. ${JSON.stringify(e)}`)].join('\n');

describe('the money rules hold over generated histories', () => {
  test.prop([historyArb, fc.constantFrom(...LOCALES)], { numRuns: RUNS })(
    'every surface, every language, every step',
    (h, locale) => {
      const broken = historyViolations(replay(h), ONE_LOCALE ? [locale] : LOCALES);
      expect(broken, `${describeHistory(h)}\nbroke:\n${broken.slice(0, 12).join('\n')}`).toEqual([]);
    },
    // A soak (MONEY_RUNS=100000) takes its time by design; the default run is bounded by RUNS.
    Math.max(120_000, RUNS * 200),
  );
});
