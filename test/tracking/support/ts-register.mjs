// Lets a plain `node` child process run the TypeScript sources (no build step, no tsx):
//   node --import ./test/tracking/support/ts-register.mjs some-entry.ts
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
