import type {
  ButtonInteraction,
  ChatInputCommandInteraction,
  Message,
  MessageContextMenuCommandInteraction,
  ModalSubmitInteraction,
  StringSelectMenuInteraction,
} from 'discord.js';
import { InteractionContextType, MessageFlags } from 'discord.js';
import type { ChatTarget, MessageRef } from '../../contracts/incoming.js';
import { italic, line, type Reply } from '../../contracts/reply.js';
import type { Translate } from '../../i18n/index.js';
import { parseOwnId } from './custom-ids.js';
import { isDmClosed } from './errors.js';
import { buildModal } from './modal.js';
import { interactionOptions, replyOptions } from './payload.js';
import { renderIn, renderReply } from './render.js';
import { interactionOnly, USER_INSTALL_FOLLOWUPS } from './user-install.js';

export type RepliableInteraction =
  | ChatInputCommandInteraction
  | MessageContextMenuCommandInteraction
  | ButtonInteraction
  | StringSelectMenuInteraction
  | ModalSubmitInteraction;

/**
 * Delivers the core's replies for one interaction, within Discord's rules:
 * - the first response must come within 3 s: either the answer itself (so a prompt can still
 *   open a modal) or a deferral, sent by ack() when the core is slower;
 * - a public "thinking..." placeholder is resolved by the first public reply (a follow-up would
 *   silently take its visibility), or deleted before ephemeral follow-ups;
 * - 'dm' replies go to the user's DMs; when those are closed, ephemerally with a note that they
 *   will not be kept; in a DM, 'dm' and 'ephemeral' simply mean here.
 * In a server, what belongs to one person stays with them (see `visibility`), and an edit replaces
 * the pressed message only when both are seen by the same people and it holds nothing to copy.
 */
export class InteractionResponder {
  /** What @original currently is. */
  private original: 'none' | 'loading-public' | 'loading-ephemeral' | 'component-message' | 'own-message' = 'none';
  private acked = false;
  private dmSent = false;
  private readonly inDm: boolean;
  private readonly canUpdate: boolean;
  /** The pressed message (or the one whose button opened the modal) is ephemeral. */
  private readonly onEphemeral: boolean;
  /** The pressed message holds copy buttons (deposit details): it is never replaced. */
  private readonly holdsCopies: boolean;
  /** Everything this interaction answers is for the one person only. */
  private readonly personal: boolean;
  /** Follow-ups left where the bot can only answer the interaction (user install); unbounded elsewhere. */
  private followUpsLeft: number;

  constructor(
    private readonly i: RepliableInteraction,
    /** The adapter's own notes (DM closed, DM sent, the apology), in this person's language. */
    private readonly words: () => Promise<Translate>,
    /** Where the creator's deposit card landed (BotCore.depositCardSent): tracking edits it later. */
    private readonly onDepositCard?: (swapId: string, chat: ChatTarget, ref: MessageRef) => Promise<void>,
  ) {
    // A group DM or a DM between two people (user install) is read by others: not the bot DM.
    this.inDm = !i.inGuild() && i.context !== InteractionContextType.PrivateChannel;
    this.followUpsLeft = interactionOnly(i) ? USER_INSTALL_FOLLOWUPS : Number.POSITIVE_INFINITY;
    const message = i.isMessageComponent() ? i.message : i.isModalSubmit() && i.isFromMessage() ? i.message : undefined;
    this.canUpdate = message !== undefined;
    this.onEphemeral = message?.flags.has(MessageFlags.Ephemeral) ?? false;
    this.holdsCopies = message ? holdsCopyButtons(message) : false;
    // Text typed into a form (an address) and presses on a message only this person sees continue
    // in private: the swap wizard after "Swap this" never shows the channel an address.
    this.personal = !this.inDm && (i.isModalSubmit() || this.onEphemeral);
  }

  /**
   * Who sees a reply. In a DM everything is 'here'. In a server: 'dm' goes to the DMs; ephemeral
   * when the core says so, when this interaction is personal (above), when the reply asks this
   * person to type something (a prompt), or when it only refuses or reports a problem (error or
   * warning tone, nothing to press or show): none of those concern the rest of the channel.
   */
  private visibility(reply: Reply): 'dm' | 'ephemeral' | 'public' {
    if (this.inDm) return 'public';
    if (reply.target === 'dm') return 'dm';
    if (reply.target === 'ephemeral' || this.personal || reply.prompt) return 'ephemeral';
    const refusal =
      (reply.tone === 'error' || reply.tone === 'warning') &&
      !reply.buttons?.some((row) => row.length > 0) &&
      !reply.image &&
      !reply.fields?.length;
    return refusal ? 'ephemeral' : 'public';
  }

  /** An 'edit' replaces the pressed message only when the same people see both, and it holds no copy buttons. */
  private mayEdit(reply: Reply, ephemeral: boolean): boolean {
    return reply.mode === 'edit' && this.canUpdate && !this.holdsCopies && ephemeral === this.onEphemeral;
  }

  get acknowledged(): boolean {
    return this.acked;
  }

  /** Defers: the component's message stays as it is, or a placeholder shows (ephemeral when asked). */
  async ack(ephemeral = this.personal): Promise<void> {
    if (this.acked) return;
    this.acked = true;
    if (this.i.isMessageComponent() || (this.i.isModalSubmit() && this.i.isFromMessage())) {
      await this.i.deferUpdate();
      this.original = 'component-message';
    } else {
      await this.i.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {});
      this.original = ephemeral ? 'loading-ephemeral' : 'loading-public';
    }
  }

  async deliver(replies: readonly Reply[]): Promise<void> {
    const only = replies.length === 1 ? replies[0] : undefined;
    // A prompt some buttons also answer (saved addresses) shows as a message: the modal would hide them.
    if (only?.prompt && !only.prompt.buttonsAnswer && !this.acked && !this.i.isModalSubmit()) {
      this.acked = true;
      // The stand-in label is looked up only when needed: a modal must open within Discord's 3 s.
      const blank = only.prompt.label.trim() ? undefined : (await this.words())('platform.discord.yourAnswer');
      await this.i.showModal(buildModal(only.prompt, only, blank));
      return;
    }
    const where = replies.map((r) => this.visibility(r));
    for (const [index, reply] of replies.entries()) {
      if (where[index] !== 'dm') {
        const ephemeral = where[index] === 'ephemeral';
        const shown = await this.show(reply, ephemeral, this.mayEdit(reply, ephemeral));
        if (this.inDm && shown) await this.depositCardAt(reply, shown);
        continue;
      }
      if (!this.acked) await this.ack(!where.slice(index + 1).includes('public'));
      try {
        const sent = await this.i.user.send(interactionOptions(await renderIn(reply, this.words)));
        this.dmSent = true;
        await this.depositCardAt(reply, sent);
      } catch (error) {
        if (!isDmClosed(error)) throw error;
        await this.show(
          { ...reply, lines: [line(italic((await this.words())('platform.discord.dmClosed'))), ...reply.lines] },
          true,
          false,
        );
      }
    }
    await this.finish();
  }

  /** A polite ephemeral error, whatever state the interaction is in. Never throws. */
  async fail(): Promise<void> {
    try {
      const error: Reply = { tone: 'error', lines: [line((await this.words())('error.bug.reason'))], target: 'ephemeral' };
      if (this.original === 'loading-public' || this.original === 'loading-ephemeral') {
        await this.i.editReply(interactionOptions(renderReply(error)));
        this.original = 'own-message';
      } else await this.show(error, true, false);
    } catch {
      // The interaction may have expired; nothing more can be said through it.
    }
  }

  /** The creator's deposit card reached their DMs as `message`: tracking keeps it to edit later. */
  private async depositCardAt(reply: Reply, message: { id: string; channelId: string }): Promise<void> {
    if (!reply.depositCardOf || !this.onDepositCard) return;
    await this.onDepositCard(
      reply.depositCardOf,
      { platform: 'discord', chatId: this.i.user.id, chatKind: 'private' },
      { platform: 'discord', chatId: message.channelId, messageId: message.id },
    );
  }

  /** Shows a reply; returns the message it became when Discord says (a deposit card is fetched). */
  private async show(reply: Reply, ephemeral: boolean, edit: boolean): Promise<{ id: string; channelId: string } | undefined> {
    const rendered = await renderIn(reply, this.words);
    const options = replyOptions(rendered, ephemeral);
    if (!this.acked) {
      this.acked = true;
      if (edit && this.canUpdate) {
        await this.updateOriginal(reply);
        this.original = 'component-message';
      } else {
        await this.i.reply(options);
        this.original = 'own-message';
        if (reply.depositCardOf) return this.i.fetchReply();
      }
      return undefined;
    }
    if (this.original === 'loading-ephemeral' || (this.original === 'loading-public' && !ephemeral)) {
      const message = await this.i.editReply(interactionOptions(rendered));
      this.original = 'own-message';
      return message;
    }
    if (this.original === 'loading-public') {
      await this.i.deleteReply();
      this.original = 'none';
    }
    if (edit && this.original === 'component-message') {
      return this.i.editReply(interactionOptions(rendered));
    }
    // Past Discord's follow-up limit the rest is left out rather than failing the whole answer.
    if (this.followUpsLeft <= 0) return undefined;
    this.followUpsLeft -= 1;
    return this.i.followUp(options);
  }

  private async updateOriginal(reply: Reply): Promise<void> {
    const options = interactionOptions(await renderIn(reply, this.words));
    if (this.i.isMessageComponent()) await this.i.update(options);
    else if (this.i.isModalSubmit() && this.i.isFromMessage()) await this.i.update(options);
  }

  /** Every interaction ends answered: no placeholder left thinking, no button left spinning. */
  private async finish(): Promise<void> {
    if (!this.acked) {
      if (this.canUpdate) await this.ack();
      else if (this.dmSent)
        await this.show({ lines: [line((await this.words())('platform.discord.dmSent'))], target: 'ephemeral' }, true, false);
      else await this.i.reply({ content: '\u2705', flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
      return;
    }
    if (this.original === 'loading-public' || this.original === 'loading-ephemeral') {
      if (this.dmSent)
        await this.show({ lines: [line((await this.words())('platform.discord.dmSent'))], target: 'ephemeral' }, true, false);
      else await this.i.deleteReply();
    }
  }
}

function holdsCopyButtons(message: Message): boolean {
  // Rows, or a Components V2 card whose rows sit inside its container: searched at any depth.
  type Node = { custom_id?: string; components?: Node[] };
  const copies = (n: Node): boolean =>
    (typeof n.custom_id === 'string' && parseOwnId(n.custom_id)?.kind === 'copy') || (n.components ?? []).some(copies);
  return message.components.some((c) => copies(c.toJSON() as Node));
}
