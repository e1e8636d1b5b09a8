import type { AutocompleteInteraction } from 'discord.js';
import { COMMANDS } from '../../bot/command-list.js';
import type { BotCore } from '../../bot/core.js';
import type { Logger } from '../../log.js';
import { loggableError } from './errors.js';
import { plain } from './markdown.js';

/**
 * Autocomplete answers from core.suggest (cached catalogue, no API request per keystroke). It
 * cannot be deferred, so a slow answer is cut off and the user sees no choices rather than an
 * error. At most 25 choices, each name and value at most 100 characters.
 */
const MAX_CHOICES = 25;
const ANSWER_WITHIN_MS = 2_000;

type Values = ReadonlyMap<string, string>;

/** The network a token list depends on (the destination for to_token, else the source), and the user's language. */
export function suggestionContext(
  optionName: string,
  values: Values,
  locale?: string,
): { network?: string; sourceNetwork?: string; locale?: string } {
  const source = values.get('from') ?? values.get('network');
  const network = optionName === 'to_token' ? values.get('to') : source;
  return { ...(network ? { network } : {}), ...(source ? { sourceNetwork: source } : {}), ...(locale ? { locale } : {}) };
}

async function suggestChoices(
  core: BotCore,
  commandName: string,
  optionName: string,
  partial: string,
  values: Values,
  locale?: string,
): Promise<Array<{ name: string; value: string }>> {
  const option = COMMANDS.find((c) => c.name === commandName)?.options.find((o) => o.name === optionName);
  if (!option?.autocomplete) return [];
  const suggestions = await core.suggest(option.autocomplete, partial, suggestionContext(optionName, values, locale));
  const seen = new Set<string>();
  const choices: Array<{ name: string; value: string }> = [];
  for (const s of suggestions) {
    if (choices.length === MAX_CHOICES) break;
    if (!s.value || s.value.length > 100 || seen.has(s.value)) continue;
    seen.add(s.value);
    choices.push({ name: plain(s.label, 100) || s.value, value: s.value });
  }
  return choices;
}

/** Always answers, with no choices when anything goes wrong: Discord shows "no options", not an error. */
export async function answerAutocomplete(i: AutocompleteInteraction, core: BotCore, log: Logger): Promise<void> {
  let choices: Array<{ name: string; value: string }> = [];
  try {
    const focused = i.options.getFocused(true);
    const values = new Map<string, string>();
    for (const o of i.options.data) if (!o.focused && typeof o.value === 'string' && o.value.trim()) values.set(o.name, o.value.trim());
    const timeout = new Promise<typeof choices>((resolve) => setTimeout(() => resolve([]), ANSWER_WITHIN_MS).unref());
    choices = await Promise.race([suggestChoices(core, i.commandName, focused.name, String(focused.value), values, i.locale), timeout]);
  } catch (error) {
    log.warn({ err: loggableError(error) }, 'autocomplete suggestions failed');
  }
  await i.respond(choices);
}
