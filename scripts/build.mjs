// Builds dist/ from src/: each module transpiled by esbuild (no type check: `npm run typecheck`,
// and test/typecheck.test.ts in `npm test`; tsc took 15 s of a cold start, esbuild well under one),
// the JSON and Lua files of src/ copied beside the code, then the pay page's browser bundle
// (scripts/build-page.mjs).
// `--if-stale` builds only when a source is newer than the last build, and says so on stderr
// first: a cold `npm start` used to be silent for up to a minute while tsc ran. Nothing goes to
// stdout, so `printf '/quote …' | npm start --silent` prints only the chat.
// `node scripts/build.mjs [--if-stale] [root]`; root defaults to this repository.
import { cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
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
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  const src = join(root, 'src');
  const page = join(src, 'pay/page');
  const files = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = join(dir, e.name);
      if (e.isDirectory()) return p === page ? [] : files(p);
      return [p];
    });
  const all = files(src);
  try {
    await esbuild.build({
      entryPoints: all.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
      outdir: join(root, 'dist'),
      outbase: src,
      format: 'esm',
      platform: 'node',
      target: 'node20.18',
      sourcemap: true,
      sourcesContent: false,
      logLevel: 'error',
    });
  } catch {
    // esbuild has printed the errors (to stderr, never into the chat on stdout).
    process.stderr.write('swapbot: the build failed (see above)\n');
    process.exit(1);
  }
  // What the modules read beside themselves: the catalogs, the Lua scripts.
  for (const f of all.filter((f) => f.endsWith('.json') || f.endsWith('.lua'))) {
    const to = join(root, 'dist', f.slice(src.length + 1));
    mkdirSync(dirname(to), { recursive: true });
    cpSync(f, to);
  }
  // The pay page's bundle (src/pay/page, its own tsconfig for the browser), when this tree has one.
  if (existsSync(join(page, 'main.ts'))) {
    try {
      await buildPayPage(root);
    } catch (err) {
      process.stderr.write(`swapbot: the pay page did not build${err?.errors ? `: ${err.message}` : ''}\n`);
      process.exit(1);
    }
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
