import { createRequire } from 'node:module';
import type * as Rest from '@discordjs/rest';

/**
 * @discordjs/rest without discord.js: the worker only sends, and discord.js (the gateway client
 * and every structure) is most of a worker's code. discord.js is CommonJS and loads this
 * package's CommonJS build; an `import` would load its ES build, a second copy whose error classes
 * are other classes, and `instanceof` (errors.ts) would miss what discord.js's own client throws.
 * So the CommonJS build is taken here: one copy, whichever loads first.
 */
const rest = createRequire(import.meta.url)('@discordjs/rest') as typeof Rest;

export const { REST, DiscordAPIError, HTTPError, RateLimitError } = rest;
export type REST = Rest.REST;
export type RawFile = Rest.RawFile;
