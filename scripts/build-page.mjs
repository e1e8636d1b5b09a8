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
  const common = { bundle: true, format: 'esm', target: 'es2022', minify: true, legalComments: 'none', metafile: true, logLevel: 'silent' };
  // TON Connect is its own file (ton.js), which page.js imports only for a TON swap.
  const tonApart = {
    name: 'ton-apart',
    setup: (b) =>
      b.onResolve({ filter: /^\.\/ton\.js$/ }, (a) => (a.importer.endsWith('main.ts') ? { path: './ton.js', external: true } : undefined)),
  };
  const [page, ton] = await Promise.all([
    esbuild.build({ ...common, entryPoints: [join(src, 'main.ts')], outfile: join(outDir, 'page.js'), plugins: [tonApart] }),
    esbuild.build({ ...common, entryPoints: [join(src, 'ton.ts')], outfile: join(outDir, 'ton.js') }),
  ]);
  const result = {
    metafile: {
      inputs: { ...page.metafile.inputs, ...ton.metafile.inputs },
      outputs: { ...page.metafile.outputs, ...ton.metafile.outputs },
    },
  };
  for (const f of ['index.html', 'page.css', 'icon.png']) copyFileSync(join(src, f), join(outDir, f));
  return result.metafile;
}
