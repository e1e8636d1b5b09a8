import { vi } from 'vitest';

/**
 * How long a wait may take before it is called a hang: a detector, not a deadline. Tests wait on
 * events (a probe that turns true, a process that exits), so a loaded machine makes them slower,
 * never red; nothing passes its own budget. vitest.config.ts sets the test and hook limits above it.
 */
export const WAIT_MS = 120_000;

/**
 * Waits (vi.waitFor) until `probe` gives something truthy, and returns it. On time-out the error
 * says what was awaited. A probe that throws is retried like one that gives nothing.
 */
export function waitFor<T>(probe: () => T | Promise<T>, what: string): Promise<NonNullable<Exclude<Awaited<T>, false | 0 | ''>>> {
  return vi.waitFor(
    async () => {
      const value = await probe();
      if (!value) throw new Error(`timed out waiting for ${what}`);
      return value as NonNullable<Exclude<Awaited<T>, false | 0 | ''>>;
    },
    { timeout: WAIT_MS, interval: 15 },
  );
}
