import { replyText, type Reply } from '../../contracts/reply.js';
import type { Messenger } from '../../contracts/messenger.js';
import type { ChatTarget, MessageRef } from '../../contracts/incoming.js';
import { t } from '../../i18n/index.js';
import { ConsoleScreen } from './screen.js';

/**
 * Pushed updates (the tracking worker) printed to the terminal chat's output. Edits print as an
 * "updated:" card; an edit to identical content prints nothing (it counts as success).
 */
export class ConsoleMessenger implements Messenger {
  readonly platform = 'console' as const;
  readonly screen: ConsoleScreen;
  private readonly shown = new Map<string, string>();

  constructor(output: NodeJS.WritableStream | ConsoleScreen, opts: { isTTY?: boolean } = {}) {
    this.screen = output instanceof ConsoleScreen ? output : new ConsoleScreen(output, opts.isTTY ?? false);
  }

  async send(target: ChatTarget, reply: Reply): Promise<MessageRef> {
    const messageId = await this.screen.print(reply, { header: t(this.screen.locale, 'console.update'), pushed: true });
    this.shown.set(messageId, replyText(reply));
    return { platform: 'console', chatId: target.chatId, messageId };
  }

  async edit(ref: MessageRef, reply: Reply): Promise<MessageRef> {
    const text = replyText(reply);
    if (this.shown.get(ref.messageId) === text) return ref;
    this.shown.set(ref.messageId, text);
    await this.screen.print(reply, {
      updated: true,
      messageId: ref.messageId,
      header: t(this.screen.locale, 'console.update'),
      pushed: true,
    });
    return ref;
  }
}
