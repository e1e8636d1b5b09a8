import { trackingRenderer } from '../../../src/bot/renderer.js';
import type { ChatTarget } from '../../../src/contracts/incoming.js';
import { line, replyButtons, replyText, text, type Reply } from '../../../src/contracts/reply.js';
import type { TrackingRenderer } from '../../../src/contracts/tracking.js';
import type { SwapDetails } from '../../../src/layerswap/schemas.js';

/** The status card renderer the tests inject: it shows what the engine must keep current; moments and notices are the core's. */

export const CARD_TITLE = 'Status card';

export function testCard(details: SwapDetails, target: ChatTarget): Reply {
  const s = details.swap;
  return {
    title: CARD_TITLE,
    lines: [
      line(`swap ${s.id}`),
      line(`status ${s.status}${s.fail_reason ? ` (${s.fail_reason})` : ''}`),
      ...s.transactions.map((t) => [text(`${t.type} ${t.status ?? '-'} ${t.confirmations ?? '-'}/${t.max_confirmations ?? '-'}`)]),
      line(`audience ${target.chatKind === 'private' ? 'private' : 'public'}`),
    ],
    target: 'here',
  };
}

export const testRenderer: TrackingRenderer = { ...trackingRenderer, card: testCard };

/**
 * Whether a delivered reply is about this swap: its text names the full id (the status card) or the
 * short id a key moment shows at phone width, with the full id on its Copy button.
 */
export function isAbout(reply: Reply, swapId: string): boolean {
  const t = replyText(reply);
  if (t.includes(swapId)) return true;
  return t.includes(swapId.slice(0, 8)) && replyButtons(reply).some((b) => b.kind === 'copy' && b.text === swapId);
}
