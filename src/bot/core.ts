import type { Incoming } from '../contracts/incoming.js';
import type { Reply } from '../contracts/reply.js';

/**
 * The platform-neutral core as the adapters see it. Adapters turn platform updates into Incoming,
 * call handle(), and render each Reply. They never look inside.
 */
export interface BotCore {
  /** Never throws on user input: every failure becomes a Reply that says what was wrong. */
  handle(incoming: Incoming): Promise<Reply[]>;
  /**
   * Suggestions for a partly typed value, from cached data only (no API request per keystroke):
   * Discord autocomplete. `network` narrows token suggestions to that network.
   */
  suggest(field: SuggestField, partial: string, context?: { network?: string; sourceNetwork?: string }): Promise<Suggestion[]>;
}

export type SuggestField = 'network' | 'source_network' | 'destination_network' | 'token';

export interface Suggestion {
  /** What the user sees, e.g. "Arbitrum One (ARBITRUM_MAINNET)". <= 100 characters. */
  label: string;
  /** What goes into the command, e.g. "ARBITRUM_MAINNET". <= 100 characters. */
  value: string;
}
