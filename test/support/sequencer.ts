import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (docs/development.md, "Where the suite's time goes"), slowest first.
 * vitest orders a run by the durations it saw in earlier runs, but a fresh clone has none and
 * orders by file size: test/tracking/worker-crash.test.ts, a small file that runs for one to two
 * minutes, then started last and ran alone while the other worker stood idle.
 */
const SLOWEST = [
  'test/mcp/conformance.test.ts',
  'test/typecheck.test.ts',
  'test/chain/ton-faults.test.ts',
  'test/e2e/processes.test.ts',
  'test/tracking/worker-crash.test.ts',
  'test/chain/takeover.test.ts',
  'test/e2e/redis-failures.test.ts',
  'test/e2e/console-first-hour.test.ts',
  'test/i18n/console-languages.test.ts',
  'test/e2e/console-pipe.test.ts',
  'test/mcp/stdio-cli.test.ts',
  'test/pay/pay-page.test.ts',
  'test/chain/sandbox-chain.test.ts',
  'test/e2e/console-track.test.ts',
  'test/e2e/console-real-shapes.test.ts',
  'test/chain/chain-watch.test.ts',
  'test/pay/gasless.test.ts',
  'test/e2e/platform-domains.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const i = SLOWEST.findIndex((f) => spec.moduleId.endsWith(f));
  return i === -1 ? SLOWEST.length : i;
};

/** vitest's own order (earlier durations, failures first), with the known long poles ahead of it. */
export class LongPolesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    return base
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
