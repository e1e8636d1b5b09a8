import type {
  APIButtonComponent,
  APIComponentInContainer,
  APIContainerComponent,
  APIMessageTopLevelComponent,
  APISectionComponent,
  APITextDisplayComponent,
} from 'discord-api-types/v10';
import { ButtonStyle, ComponentType, SeparatorSpacingSize } from 'discord-api-types/v10';
import type { Line, Reply } from '../../contracts/reply.js';
import { plain, renderLine, renderLines } from './markdown.js';

/**
 * A card (Reply.layout 'card': the status and deposit cards) as a Components V2 message: one
 * container coloured by the reply's tone; the title and lines as text displays; the image (the
 * QR) as a thumbnail beside the lines that hold the address; each line with a link (explorer
 * links, the confirmation progress beside them) as a section whose accessory is the link's
 * button; the fields after a separator; the buttons in action rows inside the container. The
 * same facts as the embed, within Discord's documented limits: 40 components in all (nested
 * counted), 4000 characters of text, 10 children per container, 1-3 texts per section.
 */

export const IS_COMPONENTS_V2 = 1 << 15;
export const V2_LIMITS = { components: 40, text: 4000, containerChildren: 10, linkSections: 3, buttonLabel: 80, url: 512 } as const;

const text = (content: string): APITextDisplayComponent => ({ type: ComponentType.TextDisplay, content });

/** Components in a tree, nested ones counted, as Discord counts them. */
export function countComponents(components: readonly unknown[]): number {
  let n = 0;
  for (const c of components as Array<Record<string, unknown>>) {
    n += 1;
    if (Array.isArray(c.components)) n += countComponents(c.components);
    if (c.accessory) n += 1;
  }
  return n;
}

/** The first http(s) link of a line: the section's button. */
function linkOf(l: Line): { label: string; url: string } | undefined {
  const span = l.find((s) => s.kind === 'link' && /^https?:\/\//i.test(s.url) && s.url.length <= V2_LIMITS.url);
  return span && span.kind === 'link' ? { label: plain(span.text, V2_LIMITS.buttonLabel) || '↗', url: span.url } : undefined;
}

export interface CardLayoutInput {
  reply: Reply;
  /** The image's attachment name when the reply has one. */
  imageName?: string;
  /** The button rows as the embed renderer makes them (copy buttons, select menus, the prompt). */
  rows: APIComponentInContainer[];
  /** Lines that had to leave the buttons (copy text too long for a custom_id). */
  overflow: Line[];
  colour: number | undefined;
}

export function renderCardV2(input: CardLayoutInput): APIMessageTopLevelComponent[] {
  const { reply, imageName, rows, overflow, colour } = input;
  let budget: number = V2_LIMITS.text;
  const spend = (s: string): string => {
    const cut = s.slice(0, Math.max(0, budget));
    budget -= cut.length;
    return cut;
  };
  const children: APIComponentInContainer[] = [];
  const title = reply.title ? spend(`### ${renderLine([{ kind: 'text', text: reply.title }], 256)}`) : '';
  // Lines with a link become sections (at most a few); the rest stay text, in order.
  const linked = new Set<number>();
  reply.lines.forEach((l, i) => {
    if (linked.size < V2_LIMITS.linkSections && linkOf(l)) linked.add(i);
  });
  const head: Line[] = [];
  const tail: Array<Line | number> = [];
  reply.lines.forEach((l, i) => {
    if (linked.has(i)) tail.push(i);
    else if (tail.length === 0) head.push(l);
    else tail.push(l);
  });
  const headText = spend([title, renderLines([...head, ...overflow], Math.max(0, budget - title.length))].filter(Boolean).join('\n'));
  if (reply.image && imageName) {
    const section: APISectionComponent = {
      type: ComponentType.Section,
      components: [text(headText || '\u200b')],
      accessory: {
        type: ComponentType.Thumbnail,
        media: { url: `attachment://${imageName}` },
        ...(reply.image.alt ? { description: plain(reply.image.alt, 1024) } : {}),
      },
    };
    children.push(section);
  } else if (headText) children.push(text(headText));
  let plainRun: Line[] = [];
  const flush = () => {
    if (plainRun.length === 0) return;
    const s = spend(renderLines(plainRun, Math.max(0, budget)));
    if (s) children.push(text(s));
    plainRun = [];
  };
  for (const item of tail) {
    if (typeof item !== 'number') {
      plainRun.push(item);
      continue;
    }
    flush();
    const l = reply.lines[item] as Line;
    const link = linkOf(l);
    const s = spend(renderLine(l, Math.max(0, budget)));
    if (!link || !s) continue;
    const button: APIButtonComponent = { type: ComponentType.Button, style: ButtonStyle.Link, label: link.label, url: link.url };
    children.push({ type: ComponentType.Section, components: [text(s)], accessory: button });
  }
  flush();
  const fields = (reply.fields ?? []).map((f) => `**${renderLine([{ kind: 'text', text: f.name }], 256)}:** ${renderLine(f.value, 1024)}`);
  if (fields.length > 0) {
    children.push({ type: ComponentType.Separator, divider: true, spacing: SeparatorSpacingSize.Small });
    const s = spend(fields.join('\n'));
    if (s) children.push(text(s));
  }
  // Buttons last; whatever would pass a limit is left out rather than the message refused.
  for (const row of rows) {
    if (children.length >= V2_LIMITS.containerChildren) break;
    if (1 + countComponents([...children, row]) > V2_LIMITS.components) break;
    children.push(row);
  }
  const container: APIContainerComponent = {
    type: ComponentType.Container,
    components: children.slice(0, V2_LIMITS.containerChildren),
    ...(colour !== undefined ? { accent_color: colour } : {}),
  };
  return [container];
}
