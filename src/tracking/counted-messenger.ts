import type { MessageRef } from '../contracts/incoming.js';
import { DeliveryError, type Messenger } from '../contracts/messenger.js';
import type { Reply } from '../contracts/reply.js';
import { notifyDeliveries, rateLimited } from '../metrics.js';

/** The messenger with each platform call counted (swapbot_notify_deliveries_total; 429s also in swapbot_rate_limited_total). */
export function counted(messenger: Messenger): Messenger {
  const count = async <T>(call: Promise<T>): Promise<T> => {
    try {
      const result = await call;
      notifyDeliveries.labels(messenger.platform, 'delivered').inc();
      return result;
    } catch (err) {
      notifyDeliveries.labels(messenger.platform, 'failed').inc();
      if (err instanceof DeliveryError && err.failure === 'rate_limited') rateLimited.labels(messenger.platform).inc();
      throw err;
    }
  };
  return {
    platform: messenger.platform,
    ...(messenger.idempotentSends !== undefined ? { idempotentSends: messenger.idempotentSends } : {}),
    send: (target, reply, options) => count(messenger.send(target, reply, options)),
    edit: (ref, reply) => count(messenger.edit(ref, reply)),
    ...(messenger.editInPlace
      ? {
          editInPlace: (ref: MessageRef, reply: Reply) =>
            count((messenger.editInPlace as NonNullable<Messenger['editInPlace']>).call(messenger, ref, reply)),
        }
      : {}),
    ...(messenger.react
      ? {
          react: (ref: MessageRef, emoji: string) =>
            count((messenger.react as NonNullable<Messenger['react']>).call(messenger, ref, emoji)),
        }
      : {}),
  };
}
