// Module hooks: "./x.js" resolves to "./x.ts" when only the .ts exists (NodeNext import style),
// and .ts files are transpiled (types stripped, no type check) with the installed typescript.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, URL } from 'node:url';
import ts from 'typescript';

const local = (s) => s.startsWith('.') || s.startsWith('/') || s.startsWith('file:');

// The sources the test's own .ts files import run from the build (dist/, compiled once per test run
// by test/global-setup.ts): a child process then transpiles two files, not the three hundred of
// src/, and starts in a fraction of the time on a loaded machine.
const root = new URL('../../../', import.meta.url);
const src = new URL('src/', root).href;
const dist = new URL('dist/', root).href;

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
    const out = ts.transpileModule(await readFile(fileName, 'utf8'), {
      fileName,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, isolatedModules: true },
    });
    return { format: 'module', source: out.outputText, shortCircuit: true };
  }
  return next(url, context);
}
