import { LOCALE_NAMES } from '../../src/i18n/index.js';
import type { LayerswapClient } from '../../src/layerswap/client.js';
import type { Line, Reply } from '../../src/contracts/reply.js';
import { replyButtons } from '../../src/contracts/reply.js';

/**
 * The pseudo-locale check of the command side: whatever a user reads outside ⟦…⟧ must be a value
 * (a number, a network or token name, an address, an id) or a command line in code.
 */

/**
 * Names that are values: networks, their types and tokens as the sandbox gives them, and each
 * language's name in itself (the /language buttons). Longest first ("Arbitrum One" before "One").
 */
export async function serviceNames(api: LayerswapClient): Promise<string[]> {
  const networks = await api.getNetworks();
  return [
    ...new Set(
      networks
        .flatMap((n) => [n.display_name ?? '', n.name, n.type ?? '', ...n.tokens.map((x) => x.symbol)])
        .concat(['Layerswap', 'UTC'], Object.values(LOCALE_NAMES)),
    ),
  ]
    .filter((s) => s.length > 0)
    .sort((a, b) => b.length - a.length);
}

/** What a user reads, minus code spans (commands, addresses, ids, copied as typed). */
const lineWords = (l: Line): string =>
  l
    .filter((s) => s.kind !== 'code')
    .map((s) => s.text)
    .join('');

export const readable = (r: Reply): string[] => [
  r.title ?? '',
  ...r.lines.map(lineWords),
  ...(r.fields ?? []).flatMap((f) => [f.name, lineWords(f.value)]),
  ...replyButtons(r).map((b) => b.label),
  r.prompt?.label ?? '',
  ...(r.dmFallback ? readable(r.dmFallback) : []),
];

/** The English words left once catalog text, names, numbers and addresses are taken out. */
export function leftovers(texts: string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of texts) {
    let s = raw;
    for (let prev = ''; prev !== s;) {
      prev = s;
      s = s.replace(/⟦[^⟦⟧]*⟧/g, ' ');
    }
    // Names as the service gives them or as the user typed them ("usdc").
    for (const n of names) s = s.replace(new RegExp(n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), ' ');
    // Command lines ("/networks evm": the type is a name above), hex ids and a shortened address's end.
    s = s
      .replace(/\/[a-z_]+/g, ' ')
      .replace(/0x[0-9a-fA-F]+|…[0-9a-fA-F]+|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|[0-9a-f]{8}\b/g, ' ')
      .replace(/\b\d+(?:\.\d+)?\b/g, ' ');
    const words = s.match(/\p{L}{2,}/gu);
    if (words) out.push(`${words.join(' ')}   ← in: ${raw}`);
  }
  return out;
}

/** The action of the button labelled `label` in these replies; fails naming the labels there are. */
export function actionOf(replies: Reply[], label: string): string {
  const b = replies.flatMap(replyButtons).find((x) => x.label === label);
  if (b?.kind !== 'action')
    throw new Error(
      `no button ${label}: ${replies
        .flatMap(replyButtons)
        .map((x) => x.label)
        .join(', ')}`,
    );
  return b.action;
}
