import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { COMMANDS } from '../../../src/bot/command-list.js';
import { suggestionContext } from '../../../src/platforms/discord/autocomplete.js';
import { commandLine, formatNumber } from '../../../src/platforms/discord/command-line.js';
import { discordCommandDefinitions, normalizeCommand, TINY_POSITIVE } from '../../../src/platforms/discord/commands.js';
import { copyButtonId, parseOwnId, promptButtonId } from '../../../src/platforms/discord/custom-ids.js';

describe('slash command definitions', () => {
  const defs = discordCommandDefinitions();

  test('every command is a valid Discord chat command, typed as the command list says', () => {
    expect(defs.map((d) => d.name)).toEqual(COMMANDS.map((c) => c.name));
    for (const d of defs) {
      expect(d.name).toMatch(/^[-_\p{Ll}\p{N}]{1,32}$/u);
      expect(d.description.length).toBeGreaterThan(0);
      expect(d.description.length).toBeLessThanOrEqual(100);
      const options = d.options ?? [];
      expect(options.length).toBeLessThanOrEqual(25);
      const firstOptional = options.findIndex((o) => !o.required);
      if (firstOptional >= 0) expect(options.slice(firstOptional).filter((o) => o.required)).toEqual([]);
    }
    const quote = defs.find((d) => d.name === 'quote');
    expect(quote?.options?.find((o) => o.name === 'amount')).toMatchObject({ type: 10, min_value: TINY_POSITIVE, required: true });
    expect(quote?.options?.find((o) => o.name === 'token')).toMatchObject({ type: 3, autocomplete: true });
    // Private-only commands are offered in DMs only; the rest in servers too.
    expect(defs.find((d) => d.name === 'history')?.contexts).toEqual([1]);
    expect(defs.find((d) => d.name === 'track')?.contexts).toEqual([0, 1, 2]);
    // User-installable: a user who adds the app to their account can /quote where the bot is not a member.
    expect(defs.find((d) => d.name === 'quote')).toMatchObject({ integration_types: [0, 1], contexts: [0, 1, 2] });
  });

  test('a registered command compares equal to ours despite the fields Discord adds or drops', () => {
    const ours = defs.find((d) => d.name === 'routes');
    if (!ours) throw new Error('no /routes');
    const asDiscordReturnsIt = {
      ...ours,
      id: '1',
      application_id: '2',
      version: '3',
      dm_permission: true,
      nsfw: false,
      name_localizations: null,
      options: (ours.options ?? []).map((o) => ({ ...o, required: o.required || undefined, name_localizations: null })),
    };
    expect(normalizeCommand(asDiscordReturnsIt, 'global')).toBe(normalizeCommand({ ...ours }, 'global'));
    expect(normalizeCommand({ ...asDiscordReturnsIt, description: 'changed' }, 'global')).not.toBe(normalizeCommand({ ...ours }, 'global'));
    // A registration without our translated descriptions is out of date.
    expect(normalizeCommand({ ...asDiscordReturnsIt, description_localizations: null }, 'global')).not.toBe(
      normalizeCommand({ ...ours }, 'global'),
    );
    // In a server, contexts do not apply: Discord returns null there.
    expect(normalizeCommand({ ...asDiscordReturnsIt, contexts: null }, 'guild')).toBe(normalizeCommand({ ...ours }, 'guild'));
  });
});

describe('command lines from options', () => {
  const quote = COMMANDS.find((c) => c.name === 'quote');
  if (!quote) throw new Error('no /quote');

  test('options join in usage order whatever order Discord sends them; missing optional ones are left out', () => {
    const values = new Map<string, string | number>([
      ['to', 'BASE_MAINNET'],
      ['amount', 100],
      ['from', 'ARBITRUM_MAINNET'],
      ['token', ' USDC '],
    ]);
    expect(commandLine(quote, values)).toBe('/quote 100 USDC ARBITRUM_MAINNET BASE_MAINNET');
  });

  test.prop([fc.double({ min: 1e-12, max: 1e15, noNaN: true })])('numbers are written out in full, never in exponent form', (n) => {
    const s = formatNumber(n);
    expect(s).toMatch(/^\d+(\.\d+)?$/);
    expect(Number(s)).toBeCloseTo(n, 10);
  });

  test('token suggestions follow the network they belong to', () => {
    const v = new Map([
      ['from', 'ARBITRUM_MAINNET'],
      ['to', 'BASE_MAINNET'],
    ]);
    expect(suggestionContext('token', v)).toEqual({ network: 'ARBITRUM_MAINNET', sourceNetwork: 'ARBITRUM_MAINNET' });
    expect(suggestionContext('to_token', v)).toEqual({ network: 'BASE_MAINNET', sourceNetwork: 'ARBITRUM_MAINNET' });
    expect(suggestionContext('token', new Map([['network', 'SOLANA_MAINNET']]))).toEqual({
      network: 'SOLANA_MAINNET',
      sourceNetwork: 'SOLANA_MAINNET',
    });
    expect(suggestionContext('from', new Map())).toEqual({});
  });
});

describe('adapter custom ids', () => {
  test.prop([fc.string({ unit: 'binary', maxLength: 200 }), fc.option(fc.integer({ min: 1, max: 4000 }), { nil: undefined })])(
    'prompt buttons always fit 100 characters and keep the label',
    (label, maxLength) => {
      const id = promptButtonId({ label, ...(maxLength ? { maxLength } : {}) });
      expect(id.length).toBeLessThanOrEqual(100);
      const parsed = parseOwnId(id);
      expect(parsed?.kind).toBe('prompt');
      if (parsed?.kind === 'prompt' && label) expect(label.startsWith(parsed.prompt.label.slice(0, 10))).toBe(true);
    },
  );

  test.prop([fc.string({ unit: 'binary', maxLength: 150 })])('copy ids carry the text exactly, or are not made', (text) => {
    const id = copyButtonId(text);
    if (id === undefined) expect(text.length).toBeGreaterThan(90);
    else expect(parseOwnId(id)).toEqual({ kind: 'copy', text });
  });

  test('core actions are never mistaken for ours; our forged ids are recognised as such', () => {
    expect(parseOwnId('st:3f2b8c1e')).toBeUndefined();
    expect(parseOwnId('~AbCdEfGhIjKl')).toBeUndefined();
    expect(parseOwnId('~dc:zz')).toEqual({ kind: 'unknown' });
  });
});
