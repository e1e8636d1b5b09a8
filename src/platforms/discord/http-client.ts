import { ClientUser, Routes, type Client } from 'discord.js';
import type { RawInteraction } from './http-callbacks.js';

/**
 * What the gateway would have given a discord.js Client that never logs in (interactions over
 * HTTP): its own user (READY sets it; DMs need it: createDM looks for a DM between that user and
 * the recipient) and the INTERACTION_CREATE dispatch. Both reach into discord.js internals that
 * are typed private; test/discord-http/interactions.test.ts (DMs, every interaction kind) fails
 * if they change.
 */
export interface HttpClient {
  /** GET /users/@me once (again after a failure): as READY would set client.user. */
  knowSelf(): Promise<void>;
  /** A raw interaction through discord.js's own INTERACTION_CREATE handling: the same classes reach the same listener. */
  emit(payload: RawInteraction): void;
}

export function httpClient(client: Client): HttpClient {
  let self: Promise<void> | undefined;
  return {
    knowSelf() {
      self ??= client.rest.get(Routes.user('@me')).then(
        (me) => {
          const user = new (ClientUser as unknown as new (c: Client, data: unknown) => ClientUser)(client, me);
          (client as { user: ClientUser | null }).user = user;
          client.users.cache.set(user.id, user);
        },
        (error: unknown) => {
          self = undefined;
          throw error;
        },
      );
      return self;
    },
    emit(payload) {
      (client as unknown as { actions: { InteractionCreate: { handle(data: unknown): void } } }).actions.InteractionCreate.handle(payload);
    },
  };
}
