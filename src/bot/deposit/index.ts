/** What the other features may use of deposit/ (lint: features import each other only through here). */
export { depositEvidence, depositReplies, isCreator, showsDepositAddress } from './details.js';
export { depositCardAfter } from './lifecycle.js';
export { depositPlan } from './plan.js';
export { paymentUri } from './payment-uri.js';
