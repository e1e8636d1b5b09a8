import type { RawFile } from './rest.js';
import { MessageFlags } from 'discord-api-types/v10';
import type { RenderedMessage } from './render.js';

/**
 * A rendered message in the two shapes that send it: discord.js interaction options (replies,
 * edits, follow-ups, DMs through the gateway client) and a raw REST body + files (the Messenger).
 * Both always carry allowed_mentions with nothing allowed, and both replace the attachments on an
 * edit, so an old image never lingers under a new card.
 */

export interface InteractionMessageOptions {
  /** Empty on a Components V2 message (Discord refuses embeds with the flag; [] clears an embed message's). */
  embeds?: RenderedMessage['embeds'];
  components: RenderedMessage['components'] | NonNullable<RenderedMessage['v2']>;
  files: Array<{ attachment: Buffer; name: string; description?: string }>;
  attachments: never[];
  allowedMentions: { parse: [] };
  /** IS_COMPONENTS_V2 (and Ephemeral on a first reply or follow-up). */
  flags?: number;
}

/**
 * For edits, updates and DMs: visibility cannot change after the first response; a Components V2
 * card carries its flag on every write (an edit cannot remove it) and no embeds.
 */
export function interactionOptions(m: RenderedMessage): InteractionMessageOptions {
  return {
    // A V2 card written over an embed message (the "which swap?" list pressed) must clear its embeds.
    ...(m.flags ? { flags: m.flags, embeds: [] } : { embeds: m.embeds }),
    components: m.v2 ?? m.components,
    files: m.files.map((f) => ({ attachment: f.data, name: f.name, ...(f.description ? { description: f.description } : {}) })),
    attachments: [],
    allowedMentions: { parse: [] },
  };
}

/** For a first reply or a follow-up, which choose their visibility. */
export function replyOptions(m: RenderedMessage, ephemeral: boolean): InteractionMessageOptions {
  const flags = (m.flags ?? 0) | (ephemeral ? MessageFlags.Ephemeral : 0);
  return { ...interactionOptions(m), ...(flags ? { flags } : {}) };
}

export interface RestMessage {
  body: {
    embeds?: RenderedMessage['embeds'];
    flags?: number;
    components: RenderedMessage['components'] | NonNullable<RenderedMessage['v2']>;
    allowed_mentions: { parse: [] };
    attachments: Array<{ id: string; filename: string; description?: string }>;
  };
  files: RawFile[];
}

export function restMessage(m: RenderedMessage): RestMessage {
  return {
    body: {
      ...(m.flags ? { flags: m.flags, embeds: [] } : { embeds: m.embeds }),
      components: m.v2 ?? m.components,
      allowed_mentions: { parse: [] },
      attachments: m.files.map((f, i) => ({ id: String(i), filename: f.name, ...(f.description ? { description: f.description } : {}) })),
    },
    files: m.files.map((f) => ({ name: f.name, data: f.data, contentType: f.contentType ?? 'image/png' })),
  };
}
