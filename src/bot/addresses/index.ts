/** What the other features may use of addresses/ (lint: features import each other only through here). */
export { isSavedId, savedLabel } from './book.js';
