import type { ChatTarget, MessageRef } from '../src/contracts/incoming.js';
import type { Messenger } from '../src/contracts/messenger.js';
import type { Reply } from '../src/contracts/reply.js';

/**
 * A Messenger for terminal-chat followers that only counts: the benchmark's background swaps
 * are followed from console chats so their first cards (10,000 of them) are rendered and
 * delivered through the notify queue without waiting on a chat platform's rate limits.
 */
export class CountingMessenger implements Messenger {
  readonly platform = 'console' as const;
  sent = 0;
  edited = 0;
  private next = 1;

  send(target: ChatTarget, reply: Reply): Promise<MessageRef> {
    void reply;
    this.sent++;
    return Promise.resolve({ platform: 'console', chatId: target.chatId, messageId: String(this.next++) });
  }

  edit(ref: MessageRef, reply: Reply): Promise<MessageRef> {
    void reply;
    this.edited++;
    return Promise.resolve(ref);
  }
}
