import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CATALOGS } from '../../src/i18n/index.js';

/**
 * The other half of typed keys (CatalogKey in src/i18n makes a wrong key fail tsc): every English key is used
 * somewhere in src/, so a sentence no code says any more is removed rather than translated five
 * times. A key counts as used when the source names it as a string, names its group (`'swapPhase.
 * confirming'` for `.label`/`.meaning`/`.next`), or builds it from a template with a fixed head
 * (`error.${kind}.title`). Families built elsewhere are listed in DYNAMIC with where.
 */
const DYNAMIC: ReadonlyArray<[RegExp, string]> = [
  // None today: the menus' `command.${name}.description` and the like are templates with a fixed
  // head. A family built with no fixed head (`${prefix}.label`) goes here, with where it is built.
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every string the code spells: plain strings, and templates as their fixed pieces. */
function strings(file: string, literals: Set<string>, templates: string[][]): void {
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) literals.add(node.text);
    else if (ts.isTemplateExpression(node)) templates.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)]);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest));
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('catalog keys', () => {
  it('every English key is used by the code (or is a documented dynamic family)', () => {
    const literals = new Set<string>();
    const pieces: string[][] = [];
    for (const file of sources(join(import.meta.dirname, '../../src'))) strings(file, literals, pieces);
    // Only templates with a fixed head ("error.") are key families; `${prefix}.label` names none.
    const templates = pieces.filter(([head]) => /^[a-zA-Z]+\./.test(head ?? '')).map((p) => new RegExp(`^${p.map(escape).join('.+')}$`));
    const used = (key: string): boolean =>
      literals.has(key) ||
      literals.has(key.slice(0, key.lastIndexOf('.'))) ||
      templates.some((r) => r.test(key)) ||
      DYNAMIC.some(([r]) => r.test(key));
    const keys = new Set(Object.keys(CATALOGS.en).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')));
    expect([...keys].filter((k) => !used(k))).toEqual([]);
  });
});
