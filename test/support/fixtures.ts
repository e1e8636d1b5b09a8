import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The real Layerswap answers in test/fixtures/layerswap (its README says how real each is).
 * `envelope` files are whole `{data, error}` answers; `data only` files are wrapped here so every
 * caller gets the answer as the service would send it; `fragment` files (deposit actions) come as
 * they are stored.
 */
const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/layerswap/', import.meta.url));

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

/** The file's JSON as stored. */
export function rawFixture(name: string): unknown {
  return JSON.parse(readFileSync(FIXTURES_DIR + name, 'utf8'));
}

function isEnvelope(v: unknown): v is { data: unknown; error?: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && 'data' in v;
}

/** The fixture as a whole HTTP body: `{data, error}`. Fragments are wrapped as data too. */
export function fixtureEnvelope(name: string): { data: unknown; error: unknown } {
  const raw = rawFixture(name);
  if (isEnvelope(raw)) return { data: raw.data, error: (raw as { error?: unknown }).error ?? null };
  return { data: raw, error: null };
}

/** Just the `data` value of the fixture (the same for every storage kind). */
export function fixtureData<T = unknown>(name: string): T {
  return fixtureEnvelope(name).data as T;
}
