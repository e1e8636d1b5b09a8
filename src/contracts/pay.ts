import type { Platform } from './incoming.js';

/**
 * The pay-from-wallet page's one port to the core (src/pay implements it): where the creator's
 * "Pay from wallet" button points. Absent when the page is not configured (PAY_PUBLIC_URL).
 */
export interface PayLinks {
  forCreator(platform: Platform, userId: string, swapId: string): { kind: 'webapp' | 'url'; url: string };
}
