/**
 * Every button verb, once: what encodes a button names it from here, and dispatch's handler
 * table is typed over these keys, so a verb without a handler (or a handler without a verb) does
 * not compile. Verbs are short because actions must fit in 64 bytes (actions.ts).
 */
export const VERBS = {
  // Status and deposit cards (also sent by tracking).
  refreshStatus: 'st',
  track: 'tr',
  /** "Track this swap": follow in the presser's private chat. */
  followPrivately: 'fp',
  depositDetails: 'dp',
  // Followed status cards (tracking): Mute / Unmute / Stop, and Undo after Stop.
  mute: 'mu',
  unmute: 'um',
  stop: 'sp',
  refollow: 'ru',
  // Back after blocking the bot: follow again every swap dropped meanwhile.
  followAgain: 'fa',
  // /settings buttons.
  settings: 'se',
  // Track anything (lookup/): "I've sent it", "Where is my swap?", an address's swaps.
  sent: 'sn',
  where: 'wh',
  addressPage: 'as',
  // Quote card.
  swapThis: 'qs',
  refreshQuote: 'qr',
  // Completion message and /history rows: a new swap like a finished one (swap/again.ts).
  swapAgain: 'sa',
  // Inline quote card (sent through Telegram inline mode).
  refreshInline: 'qi',
  // Wizard questions.
  pick: 'pk',
  pageChoices: 'pg',
  skipRefund: 'sk',
  refuel: 'rf',
  confirm: 'cf',
  // A saved address at the address step; Remove on the /addresses list.
  useAddress: 'ua',
  removeAddress: 'ar',
  cancel: 'cx',
  resume: 'rs',
  // List pages.
  networksPage: 'nw',
  routesPage: 'rt',
  historyPage: 'hs',
  historyExport: 'hx',
  trackingPage: 'tk',
  // /language.
  setLanguage: 'lg',
} as const;

export type VerbName = keyof typeof VERBS;
