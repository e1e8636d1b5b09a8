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
  // TON Connect (ton.js) and WalletConnect (walletconnect.js) are files of their own, which page.js
  // imports only when they are needed: a TON swap; a tap on WalletConnect.
  const apart = {
    name: 'apart',
    setup: (b) => b.onResolve({ filter: /^\.\/(ton|walletconnect)\.js$/ }, (a) => ({ path: a.path, external: true })),
  };
  const builds = await Promise.all([
    esbuild.build({ ...common, entryPoints: [join(src, 'main.ts')], outfile: join(outDir, 'page.js'), plugins: [apart] }),
    esbuild.build({ ...common, entryPoints: [join(src, 'ton.ts')], outfile: join(outDir, 'ton.js') }),
    esbuild.build({ ...common, entryPoints: [join(src, 'walletconnect.ts')], outfile: join(outDir, 'walletconnect.js') }),
  ]);
  const result = {
    metafile: {
      inputs: Object.assign({}, ...builds.map((b) => b.metafile.inputs)),
      outputs: Object.assign({}, ...builds.map((b) => b.metafile.outputs)),
    },
  };
  for (const f of ['index.html', 'page.css', 'icon.png']) copyFileSync(join(src, f), join(outDir, f));
  return result.metafile;
}
