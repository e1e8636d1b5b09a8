import { actionButton, type Button } from '../../contracts/reply.js';
import { t, type Locale } from '../../i18n/index.js';
import { inlineAction } from '../kernel/actions.js';
import { VERBS } from '../kernel/verbs.js';

/** "Swap again" (swap/again.ts): only the swap id travels, inline (`sa:<id>`, 39 bytes). */
export const swapAgainButton = (swapId: string, locale: Locale, label = t(locale, 'swapAgain.button')): Button =>
  actionButton(label, inlineAction(VERBS.swapAgain, swapId));
