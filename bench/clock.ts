/**
 * Sandbox time for the lifecycle runs (part 5): it runs `speed` times faster than real time from
 * a common origin the bench sets. The sandbox, the tracking workers and the bench each compute it
 * from Date.now(), so they agree to the millisecond without exchanging messages, and a 6-hour
 * lifecycle passes in a minute.
 */
export interface ScaledTime {
  /** Sandbox ms at realBase. */
  base: number;
  /** Date.now() at which the sandbox clock read `base`. */
  realBase: number;
  /** Sandbox ms per real ms. */
  speed: number;
}

export function scaledNow(t: ScaledTime): () => number {
  return () => t.base + (Date.now() - t.realBase) * t.speed;
}

/** The real instant (Date.now() scale) at which the sandbox clock reads `sandboxMs`. */
export function realAt(t: ScaledTime, sandboxMs: number): number {
  return t.realBase + (sandboxMs - t.base) / t.speed;
}

/** The sandbox time at a real instant (Date.now() scale). */
export function sandboxAt(t: ScaledTime, realMs: number): number {
  return t.base + (realMs - t.realBase) * t.speed;
}
