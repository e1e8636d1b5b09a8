/**
 * Telegram's HTML parse mode, checked the strict way: only Telegram's tags, balanced and nested,
 * every other <, > and & written as an entity. Returns the visible text (what length limits count)
 * or the error Telegram would answer with. Used by the fake Bot API and the renderer's tests.
 */
const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'code',
  'pre',
  'a',
  'tg-spoiler',
  'span',
  'blockquote',
  'tg-time',
]);
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export type HtmlResult = { ok: true; text: string; tags: string[] } | { ok: false; error: string };

export function parseTelegramHtml(html: string): HtmlResult {
  let text = '';
  const open: string[] = [];
  const tags: string[] = [];
  let i = 0;
  const fail = (what: string): HtmlResult => ({
    ok: false,
    error: `Bad Request: can't parse entities: ${what} at byte offset ${Buffer.byteLength(html.slice(0, i))}`,
  });
  while (i < html.length) {
    const c = html[i]!;
    if (c === '&') {
      const m = /^&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-z]+);/.exec(html.slice(i));
      if (!m) return fail("Can't find end of the entity starting");
      const name = m[1]!;
      if (name.startsWith('#x')) text += String.fromCodePoint(parseInt(name.slice(2), 16));
      else if (name.startsWith('#')) text += String.fromCodePoint(parseInt(name.slice(1), 10));
      else if (NAMED[name] !== undefined) text += NAMED[name];
      else return fail(`Unsupported HTML entity "${name}"`);
      i += m[0].length;
      continue;
    }
    if (c === '>') return fail('Unexpected end tag character ">"');
    if (c !== '<') {
      text += c;
      i += 1;
      continue;
    }
    const m = /^<(\/?)([a-z-]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/.exec(html.slice(i));
    if (!m) return fail('Unexpected start tag character "<"');
    const [whole, slash, name, attrs] = m as unknown as [string, string, string, string];
    if (!TAGS.has(name)) return fail(`Unsupported start tag "${name}"`);
    if (slash) {
      if (open.pop() !== name) return fail(`Unmatched end tag "${name}"`);
    } else {
      if (name === 'a' && !/^\s+href="[^"]+"$/.test(attrs)) return fail('Tag "a" must have exactly one attribute "href"');
      // A date_time entity: unix="<seconds>" and an optional format (Bot API 9.5).
      if (name === 'tg-time' && !/^\s+unix="\d+"(\s+format="(r|w?[dD]?[tT]?)")?$/.test(attrs))
        return fail('Tag "tg-time" must have attribute "unix" and may have "format"');
      if (name !== 'a' && name !== 'span' && name !== 'tg-time' && name !== 'code' && name !== 'pre' && attrs)
        return fail(`Tag "${name}" must have no attributes`);
      open.push(name);
      tags.push(name);
    }
    i += whole.length;
  }
  if (open.length) return fail(`Can't find end tag corresponding to start tag "${open[open.length - 1]}"`);
  return { ok: true, text, tags };
}
