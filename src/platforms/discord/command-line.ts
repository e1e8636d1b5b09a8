import type { CommandSpec } from '../../bot/command-list.js';

/**
 * A slash command's options as the command line the core parses: "/quote 100 USDC
 * ARBITRUM_MAINNET BASE_MAINNET". Options join in COMMANDS order (the usage order), not in the
 * order Discord lists them; missing optional ones are left out.
 */
export type OptionValue = string | number | boolean;

/** Plain decimal, never exponent notation: 1e-7 -> "0.0000001", which the amount parser accepts. */
export function formatNumber(n: number): string {
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

export function commandLine(spec: CommandSpec, values: ReadonlyMap<string, OptionValue>): string {
  const parts = [`/${spec.name}`];
  for (const option of spec.options) {
    const v = values.get(option.name);
    if (v === undefined) continue;
    const text = typeof v === 'number' ? formatNumber(v) : String(v).trim().replace(/\s+/g, ' ');
    if (text) parts.push(text);
  }
  return parts.join(' ');
}
