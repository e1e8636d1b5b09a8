import { fmt, fmtSpread, type Spread } from './stats.js';

/**
 * What each part of the benchmark reports: rows of figures (each with what it is compared
 * with, and the ratio), targets with PASS/MISS, and notes that say exactly how it was measured.
 */

export interface Row {
  figure: string;
  unit: string;
  value: Spread | null;
  /** The comparison printed beside it (the bare rate, the poll interval, the fixed poll...). */
  beside?: { label: string; unit: string; value: Spread | null };
  /** value / beside (or the inverse, as the label says), computed per repeat. */
  ratio?: { label: string; value: Spread | null };
}

export interface Target {
  text: string;
  /** The figure held against the target, formatted. */
  measured: string;
  /** null: not measured (a part is missing or the section failed). */
  pass: boolean | null;
  /** Why it was missed (or not measured), and what would fix it. */
  why?: string;
}

export interface Section {
  id: number;
  title: string;
  rows: Row[];
  targets: Target[];
  notes: string[];
  /** Set when the section could not run (a part is not ready, or it failed). */
  skipped?: string;
  durationMs?: number;
}

export function emptySection(id: number, title: string): Section {
  return { id, title, rows: [], targets: [], notes: [] };
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

function cell(s: Spread | null, unit: string): string {
  if (!s) return 'n/a';
  return `${fmtSpread(s)} ${unit}`.trim();
}

/** The table, as printed to the terminal and pasted into docs/benchmarks.md. */
export function renderTable(sections: readonly Section[]): string {
  const out: string[] = [];
  const header = ['figure', 'measured: median (min-max)', 'beside it', 'ratio'];
  for (const s of sections) {
    out.push('', `## ${s.id}. ${s.title}${s.durationMs !== undefined ? `  (${fmt(s.durationMs / 1000)} s)` : ''}`);
    if (s.skipped) out.push(`   NOT MEASURED: ${s.skipped}`);
    const lines = s.rows.map((r) => [
      r.figure,
      cell(r.value, r.unit),
      r.beside ? `${r.beside.label}: ${cell(r.beside.value, r.beside.unit)}` : '',
      r.ratio ? `${r.ratio.label} = ${r.ratio.value ? fmtSpread(r.ratio.value) : 'n/a'}` : '',
    ]);
    if (lines.length) {
      const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
      const fmtLine = (l: string[]) =>
        '   ' +
        l
          .map((c, i) => pad(c, widths[i] as number))
          .join(' | ')
          .trimEnd();
      out.push(fmtLine(header), '   ' + widths.map((w) => '-'.repeat(w)).join('-|-'));
      for (const l of lines) out.push(fmtLine(l));
    }
    for (const t of s.targets) out.push(`   ${verdict(t.pass)} ${t.text}: ${t.measured}${t.why ? `\n          ${t.why}` : ''}`);
    for (const n of s.notes) out.push(`   - ${n}`);
  }
  return out.join('\n');
}

function verdict(pass: boolean | null): string {
  return pass === null ? '[ N/A ]' : pass ? '[PASS ]' : '[MISS ]';
}

export function renderTargets(sections: readonly Section[]): string {
  const all = sections.flatMap((s) => s.targets.map((t) => ({ s, t })));
  return ['', '## Targets', ...all.map(({ s, t }) => `   ${verdict(t.pass)} (${s.id}) ${t.text}: ${t.measured}`)].join('\n');
}
