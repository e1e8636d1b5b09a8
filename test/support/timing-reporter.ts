import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where a run's time goes, per test file: import (collect), tests and hooks, and the slowest test.
 * `npx vitest run test/chain --reporter=./test/support/timing-reporter.ts` prints the files slowest
 * first; TIMINGS_JSON=path also writes them as JSON (docs/development.md, "Where the suite's time goes").
 */
export default class TimingReporter implements Reporter {
  /** Wall-clock start and end of each file, from the run's start: how many ran at once, when. */
  private readonly t0 = Date.now();
  private readonly spans = new Map<string, { start: number; end: number }>();

  onTestModuleStart(mod: TestModule): void {
    this.spans.set(mod.relativeModuleId, { start: Date.now() - this.t0, end: 0 });
  }

  onTestModuleEnd(mod: TestModule): void {
    const span = this.spans.get(mod.relativeModuleId);
    if (span) span.end = Date.now() - this.t0;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = testModules.map((mod) => {
      const d = mod.diagnostic();
      let slowest = { name: '', ms: 0 };
      let tests = 0;
      for (const test of mod.children.allTests()) {
        tests++;
        const ms = test.diagnostic()?.duration ?? 0;
        if (ms > slowest.ms) slowest = { name: test.name, ms };
      }
      const file = mod.relativeModuleId;
      const total = d.prepareDuration + d.environmentSetupDuration + d.setupDuration + d.collectDuration + d.duration;
      return { file, state: mod.state(), tests, total, collect: d.collectDuration, run: d.duration, slowest, ...this.spans.get(file) };
    });
    rows.sort((a, b) => b.total - a.total);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)}s`.padStart(7);
    const lines = ['  total collect    run tests  file  (slowest test)'];
    for (const r of rows) {
      const state = r.state === 'passed' ? '' : ` [${r.state}]`;
      lines.push(
        `${s(r.total)}${s(r.collect)}${s(r.run)} ${String(r.tests).padStart(5)}  ${r.file}${state}  (${s(r.slowest.ms).trim()} ${r.slowest.name})`,
      );
    }
    const sum = rows.reduce((a, r) => a + r.total, 0);
    lines.push(`${s(sum)} in ${rows.length} files (summed over workers)`);
    process.stdout.write(`\n${lines.join('\n')}\n`);
    if (process.env.TIMINGS_JSON) writeFileSync(process.env.TIMINGS_JSON, JSON.stringify(rows, null, 2));
  }
}
