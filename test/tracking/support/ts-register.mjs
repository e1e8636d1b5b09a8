// Lets a plain `node` child process run a test's TypeScript (no tsx), over the built src/ (dist/):
//   node --import ./test/tracking/support/ts-register.mjs some-entry.ts
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
