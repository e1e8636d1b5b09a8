import type { ChatTarget, MessageRef } from '../contracts/incoming.js';
import type { Messenger } from '../contracts/messenger.js';
import type { Reply } from '../contracts/reply.js';
import { statusCard } from '../bot/cards/status.js';
import type { SwapDetails } from '../layerswap/schemas.js';

/** The status card as the tracking worker renders it: masked in groups and channels. */
export function renderCard(details: SwapDetails, target: ChatTarget): Reply {
  return statusCard(details, { audience: target.chatKind === 'private' ? 'private' : 'public' });
}

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
