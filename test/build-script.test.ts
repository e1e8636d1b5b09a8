import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm start` runs `scripts/build.mjs --if-stale`: it builds only when a source changed, says so on
 * stderr first (a cold build used to take up to a minute), and writes nothing to stdout (the chat's).
 */
const SCRIPT = fileURLToPath(new URL('../scripts/build.mjs', import.meta.url));
const NODE_MODULES = fileURLToPath(new URL('../node_modules', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'swapbot-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function build(): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [SCRIPT, '--if-stale', root], { encoding: 'utf8', timeout: 120_000 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe('npm start builds only when sources changed', () => {
  it('says "building" on stderr when it builds, and nothing at all when dist is current', () => {
    symlinkSync(NODE_MODULES, join(root, 'node_modules'));
    mkdirSync(join(root, 'src/scripts'), { recursive: true });
    writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { outDir: 'dist', rootDir: 'src', module: 'NodeNext', target: 'ES2022', types: [] },
        include: ['src'],
      }),
    );
    writeFileSync(join(root, 'src/cli.ts'), 'export const answer: number = 42;\n');
    writeFileSync(join(root, 'src/scripts/a-1.lua'), 'return 1\n');

    const first = build();
    expect(first).toMatchObject({ status: 0, stdout: '' });
    expect(first.stderr).toMatch(/^swapbot: building \(sources changed since the last build\)…\n$/);
    expect(existsSync(join(root, 'dist/cli.js'))).toBe(true);
    expect(existsSync(join(root, 'dist/scripts/a-1.lua'))).toBe(true);

    expect(build()).toEqual({ status: 0, stdout: '', stderr: '' });

    // A source edited after the build: built again.
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'src/cli.ts'), later, later);
    const third = build();
    expect(third.stderr).toMatch(/building/);
    expect(
      execFileSync(process.execPath, ['-e', `import('${join(root, 'dist/cli.js')}').then((m) => console.log(m.answer))`], {
        encoding: 'utf8',
      }),
    ).toBe('42\n');
  });
});
