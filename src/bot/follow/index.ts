/** What the other features may use of follow/ (lint: features import each other only through here). */
export { mayManageTracking } from './follow.js';
