// Builds dist/ from src/ (tsc, then the Lua scripts of src/scripts/ copied beside the code, then the
// pay page's browser bundle, scripts/build-page.mjs).
// `--if-stale` builds only when a source is newer than the last build, and says so on stderr
// first: a cold `npm start` used to be silent for up to a minute while tsc ran. Nothing goes to
// stdout, so `printf '/quote …' | npm start --silent` prints only the chat.
// `node scripts/build.mjs [--if-stale] [root]`; root defaults to this repository.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { buildPayPage } from './build-page.mjs';

const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const root = resolve(args.find((a) => !a.startsWith('--')) ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
// Written after a complete build: a build that failed half-way is not taken for a fresh one.
const stamp = join(root, 'dist', '.built');

/** The newest modification time under a path (files only). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const sourcesChanged = () => {
  if (!existsSync(stamp)) return true;
  const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'tsconfig.json')), newest(join(root, 'package.json')));
  return sources > statSync(stamp).mtimeMs;
};

if (!ifStale || sourcesChanged()) {
  if (ifStale) process.stderr.write('swapbot: building (sources changed since the last build)…\n');
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  try {
    // tsc's diagnostics go to stderr, never into the chat on stdout.
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { cwd: root, stdio: ['ignore', 2, 2] });
  } catch {
    process.stderr.write('swapbot: the build failed (see above)\n');
    process.exit(1);
  }
  const scripts = join(root, 'src/scripts');
  if (existsSync(scripts)) cpSync(scripts, join(root, 'dist/scripts'), { recursive: true });
  // The pay page's bundle (src/pay/page, its own tsconfig for the browser), when this tree has one.
  if (existsSync(join(root, 'src/pay/page/main.ts'))) {
    try {
      execFileSync(process.execPath, [tsc, '-p', join(root, 'src/pay/page/tsconfig.json')], { cwd: root, stdio: ['ignore', 2, 2] });
      await buildPayPage(root);
    } catch (err) {
      process.stderr.write(`swapbot: the pay page did not build${err?.errors ? `: ${err.message}` : ' (see above)'}\n`);
      process.exit(1);
    }
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
