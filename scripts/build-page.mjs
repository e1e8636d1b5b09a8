// Bundles the pay page (src/pay/page, TypeScript, viem included) into one script with esbuild, and
// copies its HTML and CSS beside it: the web process serves these from dist/pay-page/ under /pay.
// Nothing is fetched from a CDN at run time. `buildPayPage(root, outDir)` is what tests call.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export async function buildPayPage(root, outDir = join(root, 'dist/pay-page')) {
  const esbuild = createRequire(join(root, 'package.json'))('esbuild');
  const src = join(root, 'src/pay/page');
  mkdirSync(outDir, { recursive: true });
  const result = await esbuild.build({
    entryPoints: [join(src, 'main.ts')],
    outfile: join(outDir, 'page.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  });
  for (const f of ['index.html', 'page.css']) copyFileSync(join(src, f), join(outDir, f));
  return result.metafile;
}
