// Module hooks: "./x.js" resolves to "./x.ts" when only the .ts exists (NodeNext import style),
// and .ts files are transpiled (types stripped, no type check) with the installed typescript.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const local = (s) => s.startsWith('.') || s.startsWith('/') || s.startsWith('file:');

// The sources the test's own .ts files import run from the build (dist/, compiled once per test run
// by test/global-setup.ts): a child process then transpiles two files, not the three hundred of
// src/, and starts in a fraction of the time on a loaded machine.
const root = new URL('../../../', import.meta.url);
const src = new URL('src/', root).href;
const dist = new URL('dist/', root).href;

// Transpiled files are kept by the hash of their text: loading typescript costs a child process
// about 0.8 s of CPU, more than the rest of its start, and test/tracking/worker-crash.test.ts
// starts fourteen. Only a file never seen before loads it.
const cacheDir = fileURLToPath(new URL('node_modules/.cache/swapbot-ts-hooks/', root));
const OPTIONS = { module: 'ESNext', target: 'ES2022', isolatedModules: true };
let ts;

async function transpile(fileName, text) {
  const key = createHash('sha256').update(JSON.stringify(OPTIONS)).update('\0').update(fileName).update('\0').update(text).digest('hex');
  const cached = join(cacheDir, `${key}.mjs`);
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  ts ??= (await import('typescript')).default;
  const { outputText } = ts.transpileModule(text, {
    fileName,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, isolatedModules: true },
  });
  try {
    // Written beside, then renamed: a process reading it never sees half a file.
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, outputText);
    renameSync(partial, cached);
  } catch {
    // A cache that cannot be written costs the next process the transpile, nothing else.
  }
  return outputText;
}

export async function resolve(specifier, context, next) {
  if (local(specifier) && specifier.endsWith('.js') && context.parentURL) {
    const url = new URL(specifier, context.parentURL);
    if (url.href.startsWith(src)) {
      const built = new URL(dist + url.href.slice(src.length));
      if (existsSync(fileURLToPath(built))) return { url: built.href, format: 'module', shortCircuit: true };
    }
    if (!existsSync(fileURLToPath(url))) {
      const tsUrl = new URL(url.href.replace(/\.js$/, '.ts'));
      if (existsSync(fileURLToPath(tsUrl))) return { url: tsUrl.href, format: 'module', shortCircuit: true };
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url.startsWith('file:') && url.endsWith('.ts')) {
    const fileName = fileURLToPath(url);
    return { format: 'module', source: await transpile(fileName, await readFile(fileName, 'utf8')), shortCircuit: true };
  }
  return next(url, context);
}
