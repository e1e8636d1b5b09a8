import type { Locale } from '../contracts/locale.js';
import { asLocale, defaultLocale } from '../i18n/index.js';
import { dateTimeFormat } from '../i18n/intl.js';

/**
 * Tracking's one door to i18n. Tracking renders no text (the core's TrackingRenderer does, in the
 * locale tracking hands it); it only keeps a follower's language, reads one back from Redis, falls
 * back to the default one, and reads the hour of a time zone for quiet hours. Every file in
 * tracking/ asks this port, so what tracking needs of i18n is this interface and nothing more.
 */
export type { Locale };

export interface TrackingLocales {
  /** The language of a follower who has none: English, or the tests' pseudo-locale (SWAPBOT_LOCALE). */
  fallback(): Locale;
  /** A stored language tag as one we speak; undefined for anything else (an old or unknown value). */
  parse(value: unknown): Locale | undefined;
  /** The hour (0-23) at `at` in an IANA time zone; throws for a zone this runtime does not know. */
  hourOf(at: number, timeZone: string): number;
}

export const trackingLocales: TrackingLocales = {
  fallback: defaultLocale,
  parse: asLocale,
  hourOf: (at, timeZone) => Number(dateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(at)),
};
