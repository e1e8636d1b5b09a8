import { vi } from 'vitest';

/**
 * Waits (vi.waitFor) until `probe` gives something truthy, and returns it. On time-out the error
 * says what was awaited. A probe that throws is retried like one that gives nothing.
 */
export function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 20_000,
): Promise<NonNullable<Exclude<Awaited<T>, false | 0 | ''>>> {
  return vi.waitFor(
    async () => {
      const value = await probe();
      if (!value) throw new Error(`timed out waiting for ${what}`);
      return value as NonNullable<Exclude<Awaited<T>, false | 0 | ''>>;
    },
    { timeout: timeoutMs, interval: 15 },
  );
}
