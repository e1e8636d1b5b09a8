import { inlineAction } from './actions.js';
import { VERBS } from './verbs.js';

/** Button actions of a status card (see dispatch.ts). */
export const statusActions = {
  refresh: (swapId: string): string => inlineAction(VERBS.refreshStatus, swapId),
  /** Status as a new card, the pressed message left as it is (the deposit card in its later state). */
  show: (swapId: string): string => inlineAction(VERBS.refreshStatus, swapId, 'n'),
  track: (swapId: string): string => inlineAction(VERBS.track, swapId),
  /** "I've sent it": asks for the deposit hash, speeds up matching, shows confirmations. */
  sent: (swapId: string): string => inlineAction(VERBS.sent, swapId),
  /** "Where is my swap?": paste a hash or an address. */
  where: (): string => inlineAction(VERBS.where),
  /** Followed cards: no more key-moment messages for this swap here (the card keeps updating). */
  mute: (swapId: string): string => inlineAction(VERBS.mute, swapId),
  unmute: (swapId: string): string => inlineAction(VERBS.unmute, swapId),
  /** Followed cards: unfollow here (undoable). */
  stop: (swapId: string): string => inlineAction(VERBS.stop, swapId),
};
