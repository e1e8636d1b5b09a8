import type {
  APIActionRowComponent,
  APIButtonComponent,
  APIComponentInMessageActionRow,
  APIEmbed,
  APIEmbedField,
  APIMessageTopLevelComponent,
  APIStringSelectComponent,
} from 'discord-api-types/v10';
import { ButtonStyle, ComponentType } from 'discord-api-types/v10';
import { bold, code, type Button, type Line, type Reply, type Tone } from '../../contracts/reply.js';
import { defaultLocale, t, type Translate } from '../../i18n/index.js';
import { copyButtonId, CUSTOM_ID_MAX, promptButtonId, selectId } from './custom-ids.js';
import { plain, renderLine, renderLines } from './markdown.js';
import { IS_COMPONENTS_V2, renderCardV2 } from './render-v2.js';

/**
 * Reply -> Discord message: one embed (title, description from the lines, fields, colour by
 * tone, the image as an attachment), buttons (a row of more than five actions becomes a select
 * menu), and allowedMentions empty so nothing in it can ping anyone.
 *
 * Choices the model leaves to the platform:
 * - copy buttons: Discord has no clipboard button, so pressing one shows the bare text ephemerally
 *   (easy to copy on desktop and mobile); text too long for a custom_id goes into the embed as code.
 * - deeplink buttons: they open a private chat on Telegram; on Discord the bot writes to the DM
 *   itself, so they are omitted.
 * - share buttons: Telegram's inline mode; Discord has no equivalent (a user-installed app runs
 *   /quote anywhere instead), so they are omitted.
 * - prompt: a button that opens the modal (the adapter shows the modal directly when it can).
 */

const LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  total: 6000,
  rows: 5,
  buttonsPerRow: 5,
  buttonLabel: 80,
  selectOptions: 25,
  optionLabel: 100,
  placeholder: 150,
  url: 512,
} as const;

export const TONE_COLOURS: Record<Tone, number> = {
  info: 0x5865f2,
  success: 0x57f287,
  warning: 0xfee75c,
  error: 0xed4245,
  pending: 0xf0b232,
};

export interface RenderedFile {
  name: string;
  data: Buffer;
  description?: string;
  /** Defaults to image/png (the QR codes). */
  contentType?: string;
}

export type MessageRow = APIActionRowComponent<APIComponentInMessageActionRow>;

export interface RenderedMessage {
  /** Empty for a Components V2 message. */
  embeds: APIEmbed[];
  /** Action rows (empty for a Components V2 message). */
  components: MessageRow[];
  files: RenderedFile[];
  allowedMentions: { parse: [] };
  /** A card as Components V2: its top-level components, sent with the flag instead of embeds and rows. */
  v2?: APIMessageTopLevelComponent[];
  /** IS_COMPONENTS_V2 with `v2`: no content and no embeds with it, and every edit keeps it. */
  flags?: number;
}

const EMPTY = '\u200b';

type ActionButton = Extract<Button, { kind: 'action' }>;
const actionsOf = (row: readonly Button[]): ActionButton[] =>
  row.filter((b): b is ActionButton => b.kind === 'action' && b.action.length <= CUSTOM_ID_MAX);
/** A row of more than five buttons, two or more of them actions, shows as a select menu. */
const asSelect = (row: readonly Button[]): boolean => row.length > LIMITS.buttonsPerRow && actionsOf(row).length > 1;

/**
 * renderReply with the select menu's placeholder (the one word the renderer adds itself) in the
 * reader's language: `words` is asked only when the reply has a select menu.
 */
export async function renderIn(reply: Reply, words: () => Promise<Translate>): Promise<RenderedMessage> {
  const select = (reply.buttons ?? []).some(asSelect);
  return renderReply(reply, select ? (await words())('platform.discord.choose') : undefined);
}

/** `choose`: the select menu's placeholder in the reader's language (platform.discord.choose; default: the default locale's). */
export function renderReply(reply: Reply, choose = t(defaultLocale(), 'platform.discord.choose')): RenderedMessage {
  if (reply.layout === 'card') return renderCard(reply, choose);
  const overflow: Line[] = [];
  const components = renderComponents(reply, overflow, choose);
  const files: RenderedFile[] = [];
  const embed: APIEmbed = {};
  let used = 0;
  if (reply.title) {
    embed.title = renderLine([{ kind: 'text', text: reply.title }], LIMITS.title);
    used += embed.title.length;
  }
  if (reply.tone) embed.color = TONE_COLOURS[reply.tone];
  const description = renderLines([...reply.lines, ...overflow], Math.min(LIMITS.description, LIMITS.total - used));
  if (description) {
    embed.description = description;
    used += description.length;
  }
  const fields: APIEmbedField[] = [];
  for (const f of (reply.fields ?? []).slice(0, LIMITS.fields)) {
    const name = renderLine([{ kind: 'text', text: f.name }], LIMITS.fieldName) || EMPTY;
    const room = Math.min(LIMITS.fieldValue, LIMITS.total - used - name.length);
    if (room < 1) break;
    const value = renderLine(f.value, room) || EMPTY;
    fields.push({ name, value, ...(f.inline ? { inline: true } : {}) });
    used += name.length + value.length;
  }
  if (fields.length) embed.fields = fields;
  if (reply.image) {
    const name = imageName(reply.image.filename);
    files.push({ name, data: Buffer.from(reply.image.png), description: plain(reply.image.alt, 1024) || undefined });
    embed.image = { url: `attachment://${name}` };
  }
  // A file (the CSV export) rides along as a plain attachment below the embed.
  if (reply.attachment)
    files.push({
      name: reply.attachment.filename.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60) || 'file',
      data: Buffer.from(reply.attachment.data),
      contentType: reply.attachment.mimeType,
    });
  if (!embed.title && !embed.description && !embed.fields && !embed.image) embed.description = EMPTY;
  return { embeds: [embed], components, files, allowedMentions: { parse: [] } };
}

/** A card as Components V2 (render-v2.ts), with the same buttons and files as its embed would have. */
function renderCard(reply: Reply, choose: string): RenderedMessage {
  const overflow: Line[] = [];
  const rows = renderComponents(reply, overflow, choose);
  const files: RenderedFile[] = [];
  const name = reply.image ? imageName(reply.image.filename) : undefined;
  if (reply.image && name) files.push({ name, data: Buffer.from(reply.image.png), description: plain(reply.image.alt, 1024) || undefined });
  if (reply.attachment)
    files.push({
      name: reply.attachment.filename.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60) || 'file',
      data: Buffer.from(reply.attachment.data),
      contentType: reply.attachment.mimeType,
    });
  const components = renderCardV2({
    reply,
    rows,
    overflow,
    colour: reply.tone ? TONE_COLOURS[reply.tone] : undefined,
    ...(name ? { imageName: name } : {}),
  });
  return { embeds: [], components: [], v2: components, files, allowedMentions: { parse: [] }, flags: IS_COMPONENTS_V2 };
}

function imageName(filename: string | undefined): string {
  const base = (filename ?? 'image.png').replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
  return /\.png$/i.test(base) ? base : `${base || 'image'}.png`;
}

function renderComponents(reply: Reply, overflow: Line[], choose: string): MessageRow[] {
  const rows: MessageRow[] = [];
  const maxRows = reply.prompt ? LIMITS.rows - 1 : LIMITS.rows;
  let firstAction = true;
  // Discord refuses a whole message over one repeated custom_id: the first button with an id wins.
  const used = new Set<string>();
  const fresh = (id: string): boolean => !used.has(id) && Boolean(used.add(id));
  (reply.buttons ?? []).forEach((row, index) => {
    const buttons: APIButtonComponent[] = [];
    const select = asSelect(row);
    if (select) rows.push(selectRow(index, actionsOf(row), choose));
    for (const b of row) {
      if (b.kind === 'action') {
        if (select || b.action.length > CUSTOM_ID_MAX || !fresh(b.action)) continue;
        buttons.push({
          type: ComponentType.Button,
          style: firstAction ? ButtonStyle.Primary : ButtonStyle.Secondary,
          label: label(b.label),
          custom_id: b.action,
        });
        firstAction = false;
      } else if (b.kind === 'url' || b.kind === 'webapp') {
        if (b.url.length <= LIMITS.url && /^https?:\/\//i.test(b.url))
          buttons.push({ type: ComponentType.Button, style: ButtonStyle.Link, label: label(b.label), url: b.url });
      } else if (b.kind === 'copy') {
        const id = copyButtonId(b.text);
        if (!id) overflow.push([bold(`${b.label}: `), code(b.text)]);
        else if (fresh(id))
          buttons.push({ type: ComponentType.Button, style: ButtonStyle.Secondary, label: label(b.label), custom_id: id });
      }
      // deeplink, share: omitted on Discord (see above).
    }
    for (let i = 0; i < buttons.length; i += LIMITS.buttonsPerRow)
      rows.push({ type: ComponentType.ActionRow, components: buttons.slice(i, i + LIMITS.buttonsPerRow) });
  });
  const kept = rows.slice(0, maxRows);
  if (reply.prompt) {
    kept.push({
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.Button,
          style: ButtonStyle.Primary,
          label: label(`✏️ ${reply.prompt.label}`),
          custom_id: promptButtonId(reply.prompt),
        },
      ],
    });
  }
  return kept;
}

function selectRow(index: number, actions: ActionButton[], choose: string): MessageRow {
  const seen = new Set<string>();
  const options = [];
  for (const a of actions) {
    if (seen.has(a.action) || options.length === LIMITS.selectOptions) continue;
    seen.add(a.action);
    options.push({ label: plain(a.label, LIMITS.optionLabel) || a.action, value: a.action });
  }
  const select: APIStringSelectComponent = {
    type: ComponentType.StringSelect,
    custom_id: selectId(index),
    placeholder: plain(choose, LIMITS.placeholder),
    min_values: 1,
    max_values: 1,
    options,
  };
  return { type: ComponentType.ActionRow, components: [select] };
}

function label(text: string): string {
  return plain(text, LIMITS.buttonLabel) || '·';
}
