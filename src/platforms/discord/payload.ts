import type { RawFile } from 'discord.js';
import { MessageFlags } from 'discord.js';
import type { RenderedMessage } from './render.js';

/**
 * A rendered message in the two shapes that send it: discord.js interaction options (replies,
 * edits, follow-ups, DMs through the gateway client) and a raw REST body + files (the Messenger).
 * Both always carry allowed_mentions with nothing allowed, and both replace the attachments on an
 * edit, so an old image never lingers under a new card.
 */

export interface InteractionMessageOptions {
  embeds: RenderedMessage['embeds'];
  components: RenderedMessage['components'];
  files: Array<{ attachment: Buffer; name: string; description?: string }>;
  attachments: never[];
  allowedMentions: { parse: [] };
}

/** For edits, updates and DMs: no flags (visibility cannot change after the first response). */
export function interactionOptions(m: RenderedMessage): InteractionMessageOptions {
  return {
    embeds: m.embeds,
    components: m.components,
    files: m.files.map((f) => ({ attachment: f.data, name: f.name, ...(f.description ? { description: f.description } : {}) })),
    attachments: [],
    allowedMentions: { parse: [] },
  };
}

/** For a first reply or a follow-up, which choose their visibility. */
export function replyOptions(m: RenderedMessage, ephemeral: boolean): InteractionMessageOptions & { flags?: MessageFlags.Ephemeral } {
  return { ...interactionOptions(m), ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}) };
}

export interface RestMessage {
  body: {
    embeds: RenderedMessage['embeds'];
    components: RenderedMessage['components'];
    allowed_mentions: { parse: [] };
    attachments: Array<{ id: string; filename: string; description?: string }>;
  };
  files: RawFile[];
}

export function restMessage(m: RenderedMessage): RestMessage {
  return {
    body: {
      embeds: m.embeds,
      components: m.components,
      allowed_mentions: { parse: [] },
      attachments: m.files.map((f, i) => ({ id: String(i), filename: f.name, ...(f.description ? { description: f.description } : {}) })),
    },
    files: m.files.map((f) => ({ name: f.name, data: f.data, contentType: f.contentType ?? 'image/png' })),
  };
}
