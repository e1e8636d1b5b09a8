/** What the other features may use of deposit/ (lint: features import each other only through here). */
export { depositReplies, isCreator, waitsForDeposit } from './details.js';
export { depositCardAfter } from './lifecycle.js';
