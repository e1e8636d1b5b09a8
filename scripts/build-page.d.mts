/** Bundles the pay page into outDir (default <root>/dist/pay-page); resolves to esbuild's metafile. */
export function buildPayPage(
  root: string,
  outDir?: string,
): Promise<{ outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }> }>;
