import { loadConfig } from '../src/config.js';

/**
 * The configuration defaults (src/config.ts) the benchmark measures against, read from the
 * config itself so the figures follow when a default changes.
 */
export const CONFIG_DEFAULTS = loadConfig({});
