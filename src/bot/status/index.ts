/** What the other features may use of status/ (lint: features import each other only through here). */
export { confirmationBar, statusCard } from './card.js';
export { swapListCard, swapRoute, swapRouteIn, swapStatusLabel } from './list-card.js';
export { supportSummary } from './moments.js';
export { statusWords } from './words.js';
