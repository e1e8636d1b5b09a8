import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, loadConfig } from '../src/config.js';

const read = (p: string) => readFileSync(new URL(`../${p}`, import.meta.url), 'utf8');

describe('operator documentation', () => {
  it('.env.example lists every variable the bot reads, and parses as a valid config', () => {
    const example = read('.env.example');
    const listed = [...example.matchAll(/^([A-Z][A-Z0-9_]+)=(.*)$/gm)];
    expect(listed.map((m) => m[1]).sort()).toEqual([...CONFIG_KEYS].sort());
    const env = Object.fromEntries(listed.map((m) => [m[1]!, m[2]!]));
    expect(() => loadConfig(env)).not.toThrow();
  });

  it('docs/configuration.md documents every variable; the README gives the two set-up commands', () => {
    const config = read('docs/configuration.md');
    for (const key of CONFIG_KEYS) expect(config, key).toContain(`\`${key}\``);
    const readme = read('README.md');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });

  it('every relative link in the README, CHANGELOG and docs/ resolves to a file of the repository', () => {
    const pages = ['README.md', 'CHANGELOG.md', ...readdirSync(new URL('../docs', import.meta.url)).map((f) => `docs/${f}`)].filter((p) =>
      p.endsWith('.md'),
    );
    const broken: string[] = [];
    for (const page of pages) {
      const base = new URL(`../${page}`, import.meta.url);
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
        const file = target.split('#')[0] as string;
        if (!existsSync(new URL(file, base))) broken.push(`${page} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the Procfile declares the web and worker processes the CLI offers', () => {
    const procfile = read('Procfile');
    expect(procfile).toMatch(/^web: node dist\/cli\.js web$/m);
    expect(procfile).toMatch(/^worker: node dist\/cli\.js worker$/m);
  });

  it('the published build holds only what swapbot runs: the benchmark is built apart', () => {
    // global-setup has just run the build (tsconfig.json) that `npm run build` runs.
    expect(existsSync(new URL('../dist/cli.js', import.meta.url))).toBe(true);
    expect(existsSync(new URL('../dist/bench', import.meta.url))).toBe(false);
    const pkg = JSON.parse(read('package.json')) as { files: string[]; scripts: Record<string, string> };
    expect(pkg.files).toEqual(['dist']);
    expect(pkg.scripts.bench).toContain('bench/tsconfig.json');
  });
});
