/**
 * Every button verb, once: what encodes a button names it from here, and the router's handler
 * table is typed over these keys, so a verb without a handler (or a handler without a verb) does
 * not compile. Verbs are short because actions must fit in 64 bytes (actions.ts).
 */
export const VERBS = {
  // Status and deposit cards (also sent by tracking).
  refreshStatus: 'st',
  track: 'tr',
  depositDetails: 'dp',
  // Quote card.
  swapThis: 'qs',
  refreshQuote: 'qr',
  // Wizard questions.
  pick: 'pk',
  pageChoices: 'pg',
  skipRefund: 'sk',
  refuel: 'rf',
  confirm: 'cf',
  cancel: 'cx',
  resume: 'rs',
  // List pages.
  networksPage: 'nw',
  routesPage: 'rt',
  historyPage: 'hs',
  trackingPage: 'tk',
} as const;

export type VerbName = keyof typeof VERBS;
