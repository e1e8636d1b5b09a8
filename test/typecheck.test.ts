import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The build transpiles without checking types (scripts/build.mjs, esbuild): this keeps `npm test`
 * refusing a type error in the product or the pay page, as the tsc build did, while other files run.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function check(project: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', project, '--noEmit', '--incremental', 'false'], { cwd: root }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe('types', () => {
  it('the product and the pay page type-check (tsc, strict)', async () => {
    const [product, page] = await Promise.all([check('tsconfig.json'), check('src/pay/page/tsconfig.json')]);
    expect(product.out).toBe('');
    expect(page.out).toBe('');
    expect([product.code, page.code]).toEqual([0, 0]);
  });
});
