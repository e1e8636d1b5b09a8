import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';

/**
 * Every Lua script of the process (tracking, watched addresses, the rate limit, Telegram's update ledger), one file
 * each in scripts/, named `<command>-<number of keys>.lua` (BullMQ's convention), and the one way
 * to run them: each becomes an ioredis command (defineCommand: EVALSHA, and EVAL once after a
 * Redis restart forgot it). Every script touches keys of one hash tag only (Redis Cluster).
 * One exception, said in its file: admit-4.lua runs only on a single Redis (the core takes its
 * steps one by one on a Redis Cluster, bot/kernel/admission.ts). A line `--- @include "name"` (as in
 * BullMQ) is replaced by scripts/includes/name.lua, so two scripts share one piece of logic.
 * Here, below the bot, tracking and the adapters, so each can use it without importing upward.
 * `npm run build` copies scripts/ next to the compiled module (what an installed package runs);
 * in a source checkout the files in src/ are read.
 */

export type ScriptName =
  | 'follow'
  | 'routeTime'
  | 'unfollow'
  | 'retire'
  | 'pollStart'
  | 'pollCommit'
  | 'setDelivery'
  | 'hint'
  | 'reserveSlot'
  | 'releaseSlot'
  | 'takePace'
  | 'bookSend'
  | 'mute'
  | 'chainSet'
  | 'moveChat'
  | 'depositCard'
  | 'takeToken'
  | 'claimUpdate'
  | 'renewUpdate'
  | 'finishUpdate'
  | 'takeOverUpdates'
  | 'watchPutBack'
  | 'admit';

type Arg = string | number | Buffer;
export type ScriptRunner = (name: ScriptName, keys: readonly string[], args: readonly Arg[]) => Promise<unknown>;

function scriptsDir(): string {
  // In a source checkout the sources win (a dist/ built by plain tsc may hold an older copy);
  // an installed package has only the copy next to the module.
  // Only this repository's: an installed package must not take its host project's src/scripts/.
  for (let up = '../'; up.length <= 5 * 3; up += '../') {
    const dir = fileURLToPath(new URL(`${up}src/scripts/`, import.meta.url));
    if (existsSync(dir) && isThisRepository(fileURLToPath(new URL(`${up}package.json`, import.meta.url)))) return dir;
  }
  const here = fileURLToPath(new URL('./scripts/', import.meta.url));
  if (existsSync(here)) return here;
  throw new Error(`the Lua scripts are missing: expected them in ${here} (npm run build copies them there)`);
}

function isThisRepository(packageJson: string): boolean {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: unknown }).name === 'swapbot';
  } catch {
    return false;
  }
}

let loaded: Map<string, { numberOfKeys: number; lua: string }> | undefined;

function scriptSources(): ReadonlyMap<string, { numberOfKeys: number; lua: string }> {
  if (loaded) return loaded;
  const dir = scriptsDir();
  const out = new Map<string, { numberOfKeys: number; lua: string }>();
  for (const file of readdirSync(dir)) {
    const m = /^(\w+)-(\d+)\.lua$/.exec(file);
    if (m) out.set(m[1] as string, { numberOfKeys: Number(m[2]), lua: withIncludes(dir, readFileSync(`${dir}${file}`, 'utf8')) });
  }
  loaded = out;
  return out;
}

function withIncludes(dir: string, lua: string): string {
  return lua.replace(/^--- @include "(\w+)"$/gm, (_, name: string) => readFileSync(`${dir}includes/${name}.lua`, 'utf8'));
}

/** Whether this connection is a Redis Cluster client (scripts whose keys span slots must not run on it). */
export function isCluster(redis: Redis): boolean {
  return (redis as unknown as { isCluster?: boolean }).isCluster === true;
}

const defined = new WeakSet<Redis>();

/** Defines every script on this connection (once) and returns a runner for them. */
export function scripts(redis: Redis): ScriptRunner {
  if (!defined.has(redis)) {
    for (const [name, s] of scriptSources()) redis.defineCommand(name, s);
    defined.add(redis);
  }
  const commands = redis as unknown as Record<string, (...a: Arg[]) => Promise<unknown>>;
  return (name, keys, args) => {
    const fn = commands[name];
    if (!fn) throw new Error(`Lua script ${name} is missing from ${scriptsDir()}`);
    return fn.call(redis, ...keys, ...args);
  };
}
