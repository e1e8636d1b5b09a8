/**
 * The neutral message model. Handlers build Replies; each platform adapter renders them (Telegram
 * HTML + inline keyboard, Discord embed + components, terminal text with numbered buttons).
 * Text is structured, never raw markup, so user-supplied strings can never be read as markup.
 */

export type Span =
  | { kind: 'text'; text: string }
  | { kind: 'bold'; text: string }
  | { kind: 'italic'; text: string }
  /** Monospace; copies cleanly (addresses, amounts, ids). */
  | { kind: 'code'; text: string }
  | { kind: 'link'; text: string; url: string }
  /**
   * A moment shown relative to the reader's now ("in 5 minutes", "3 hours ago") that stays true
   * without edits: Telegram's date_time entity, Discord's <t:…:R>. `text` is what platforms
   * without one show (and the fallback inside the entity). `at` is ms since epoch.
   */
  | { kind: 'time'; text: string; at: number };

/** One line of rich text. */
export type Line = Span[];

export interface Field {
  /** A stable id for code that picks fields (the name is translated); renderers ignore it. */
  id?: string;
  name: string;
  value: Line;
  /** Hint for side-by-side layout where the platform supports it (Discord embeds). */
  inline?: boolean;
}

export type Button =
  /** Pressing sends `action` back to the core (<= 64 UTF-8 bytes; see bot/kernel/actions.ts). */
  | { kind: 'action'; label: string; action: string }
  | { kind: 'url'; label: string; url: string }
  /** Opens `url` inside the chat app where it can (a Telegram Mini App, private chats only); elsewhere a link. */
  | { kind: 'webapp'; label: string; url: string }
  /** Copies `text` to the clipboard where the platform can (Telegram CopyTextButton). */
  | { kind: 'copy'; label: string; text: string }
  /** Opens a private chat with the bot carrying `payload` (Telegram ?start=payload). */
  | { kind: 'deeplink'; label: string; payload: string }
  /**
   * Lets the user pick another chat and send `query` there through the bot's inline mode (Telegram
   * switch_inline_query_chosen_chat). Platforms without an inline mode leave it out.
   */
  | { kind: 'share'; label: string; query: string };

export interface Image {
  png: Uint8Array;
  alt: string;
  /** File name for platforms that need one (Discord attachments). */
  filename?: string;
  /** The text the image encodes when it is a QR code: a terminal draws the same code as characters. */
  qr?: string;
}

/**
 * A file sent with the reply (the /history CSV export): Telegram sendDocument, a Discord
 * attachment, the terminal saves it and prints its path.
 */
export interface Attachment {
  data: Uint8Array;
  /** Letters, digits, '.', '-' and '_' only; adapters clean it anyway. */
  filename: string;
  /** e.g. 'text/csv'. */
  mimeType: string;
}

/** Colour and icon hint: Discord embed colour, console prefix. */
export type Tone = 'info' | 'success' | 'warning' | 'error' | 'pending';

export interface Reply {
  title?: string;
  tone?: Tone;
  lines: Line[];
  fields?: Field[];
  /** Rows of buttons. */
  buttons?: Button[][];
  image?: Image;
  /** A file sent with the text (never together with `image`). */
  attachment?: Attachment;
  /**
   * Where it goes: 'here' (the chat the message came from), 'dm' (privately to the user: deposit
   * details), 'ephemeral' (only the user sees it, where the platform supports it; else 'dm' in
   * groups, 'here' in private chats).
   */
  target: 'here' | 'dm' | 'ephemeral';
  /**
   * For target 'ephemeral' in a group, when the platform cannot show it to this person alone
   * (Telegram: not deliverable there, refused): 'here' posts it in the chat (a wizard question that
   * is answered there, as before ephemeral messages); 'notPrivate' marks a refusal or input error
   * with nothing private in it: it goes privately like the rest, but a sender that is the chat
   * itself (an anonymous admin: no person to write to) gets it in the chat; absent: privately, as
   * for 'dm' (or an alert to a button press).
   */
  ephemeralFallback?: 'here' | 'notPrivate';
  /**
   * 'card': one self-contained card (a swap's status card, its deposit card) that platforms with a
   * richer layout show as one (Discord Components V2); others ignore it.
   */
  layout?: 'card';
  /** 'edit' replaces the message the pressed button belongs to (the wizard edits in place). */
  mode?: 'new' | 'edit';
  /**
   * The core wants free text next (an address): Discord shows a modal with this label, Telegram
   * a ForceReply, the terminal a prompt. The answer arrives as Incoming.text.
   */
  prompt?: {
    label: string;
    placeholder?: string;
    maxLength?: number;
    /** Some buttons answer it too (saved addresses): shown first, never skipped for Discord's modal. */
    buttonsAnswer?: boolean;
  };
  /**
   * For target 'dm': what to post in the original chat when the private message cannot be
   * delivered (the user never opened a chat with the bot). Usually holds a deeplink button.
   */
  dmFallback?: Reply;
  /**
   * This is the creator's deposit card of this swap: the adapter that delivers it to the private
   * chat reports where it landed (BotCore.depositCardSent), so tracking edits it as the swap moves on.
   */
  depositCardOf?: string;
}

// ---- builders, so handlers read as prose ----

export const text = (t: string): Span => ({ kind: 'text', text: t });
export const bold = (t: string): Span => ({ kind: 'bold', text: t });
export const italic = (t: string): Span => ({ kind: 'italic', text: t });
export const code = (t: string): Span => ({ kind: 'code', text: t });
export const link = (t: string, url: string): Span => ({ kind: 'link', text: t, url });
export const time = (at: number, fallback: string): Span => ({ kind: 'time', text: fallback, at });
/** A line from spans; plain strings become text spans. */
export const line = (...spans: Array<Span | string>): Line => spans.map((s) => (typeof s === 'string' ? text(s) : s));

export const actionButton = (label: string, action: string): Button => ({ kind: 'action', label, action });
export const urlButton = (label: string, url: string): Button => ({ kind: 'url', label, url });
export const copyButton = (label: string, value: string): Button => ({ kind: 'copy', label, text: value });
export const deeplinkButton = (label: string, payload: string): Button => ({ kind: 'deeplink', label, payload });
export const shareButton = (label: string, query: string): Button => ({ kind: 'share', label, query });

/** Plain text of a line, for terminals, tests, previews and length budgets. */
export function lineText(l: Line): string {
  return l.map((s) => s.text).join('');
}

/** A readable plain-text rendering of the whole reply (title, lines, fields; no buttons). */
export function replyText(r: Reply): string {
  const parts: string[] = [];
  if (r.title) parts.push(r.title);
  for (const l of r.lines) parts.push(lineText(l));
  for (const f of r.fields ?? []) parts.push(`${f.name}: ${lineText(f.value)}`);
  return parts.join('\n');
}

/** All buttons of a reply in reading order. */
export function replyButtons(r: Reply): Button[] {
  return (r.buttons ?? []).flat();
}
