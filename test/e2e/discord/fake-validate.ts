/**
 * The checks Discord applies to message and modal payloads (the limits in engineering.md B7),
 * so a payload the real API would refuse is refused here too, with Discord's 50035 shape.
 */
type Json = Record<string, unknown>;

export const IS_COMPONENTS_V2 = 1 << 15;

export function validateMessage(body: Json, fileNames: readonly string[]): string[] {
  if ((Number(body.flags ?? 0) & IS_COMPONENTS_V2) !== 0) return validateV2(body, fileNames);
  const problems: string[] = [];
  const content = typeof body.content === 'string' ? body.content : '';
  if (content.length > 2000) problems.push('content: must be 2000 or fewer in length');
  const embeds = (body.embeds ?? []) as Json[];
  if (embeds.length > 10) problems.push('embeds: must be 10 or fewer in length');
  let total = 0;
  embeds.forEach((e, n) => {
    const title = String(e.title ?? '');
    const description = String(e.description ?? '');
    if (title.length > 256) problems.push(`embeds.${n}.title: must be 256 or fewer in length`);
    if (description.length > 4096) problems.push(`embeds.${n}.description: must be 4096 or fewer in length`);
    total += title.length + description.length;
    const fields = (e.fields ?? []) as Json[];
    if (fields.length > 25) problems.push(`embeds.${n}.fields: must be 25 or fewer in length`);
    fields.forEach((f, k) => {
      const name = String(f.name ?? '');
      const value = String(f.value ?? '');
      if (!name || name.length > 256) problems.push(`embeds.${n}.fields.${k}.name: must be 1-256 in length`);
      if (!value || value.length > 1024) problems.push(`embeds.${n}.fields.${k}.value: must be 1-1024 in length`);
      total += name.length + value.length;
    });
    const image = e.image as Json | undefined;
    const url = String(image?.url ?? '');
    if (url.startsWith('attachment://') && !fileNames.includes(url.slice('attachment://'.length)))
      problems.push(`embeds.${n}.image.url: no attachment named ${url.slice(13)}`);
  });
  if (total > 6000) problems.push('embeds: total size must be 6000 or fewer');
  if (!content && embeds.length === 0 && fileNames.length === 0 && body.components === undefined)
    problems.push('Cannot send an empty message');
  problems.push(...validateComponents((body.components ?? []) as Json[]));
  return problems;
}

/**
 * A Components V2 message (Discord's components overview and reference): no content, embeds, poll
 * or stickers; top level: action row, section, text display, media gallery, file, separator,
 * container; a thumbnail only as a section's accessory; a container holds up to 10; a section 1-3
 * text displays and a thumbnail or button; at most 40 components in all (nested counted) and 4000
 * characters of text; media from http(s) or an uploaded attachment.
 */
function validateV2(body: Json, fileNames: readonly string[]): string[] {
  const problems: string[] = [];
  if (typeof body.content === 'string' && body.content !== '') problems.push('content: cannot be used with IS_COMPONENTS_V2');
  if (Array.isArray(body.embeds) && body.embeds.length > 0) problems.push('embeds: cannot be used with IS_COMPONENTS_V2');
  if (body.poll !== undefined || body.sticker_ids !== undefined) problems.push('poll, sticker_ids: cannot be used with IS_COMPONENTS_V2');
  const top = (body.components ?? []) as Json[];
  if (top.length === 0) problems.push('components: a Components V2 message needs at least one');
  let count = 0;
  let textLength = 0;
  const ids = new Set<string>();
  const media = (m: unknown, where: string) => {
    const url = String((m as Json | undefined)?.url ?? '');
    if (url.startsWith('attachment://')) {
      if (!fileNames.includes(url.slice(13))) problems.push(`${where}.media.url: no attachment named ${url.slice(13)}`);
    } else if (!/^https?:\/\//.test(url)) problems.push(`${where}.media.url: must be http(s) or attachment://`);
  };
  const visit = (c: Json, where: string, parent: 'top' | 'container' | 'section' | 'accessory') => {
    count += 1;
    switch (c.type) {
      case 1:
        if (parent === 'section') problems.push(`${where}: an action row cannot be in a section`);
        problems.push(...validateComponents([c], ids, where));
        count += ((c.components ?? []) as Json[]).length;
        break;
      case 10: {
        const content = String(c.content ?? '');
        if (content === '') problems.push(`${where}.content: required`);
        textLength += content.length;
        break;
      }
      case 9: {
        if (parent === 'section' || parent === 'accessory') problems.push(`${where}: a section cannot be nested here`);
        const texts = (c.components ?? []) as Json[];
        if (texts.length < 1 || texts.length > 3 || texts.some((t) => t.type !== 10))
          problems.push(`${where}.components: one to three text displays`);
        texts.forEach((t, i) => visit(t, `${where}.components.${i}`, 'section'));
        const acc = c.accessory as Json | undefined;
        if (!acc || (acc.type !== 11 && acc.type !== 2)) problems.push(`${where}.accessory: a thumbnail or a button is required`);
        else visit(acc, `${where}.accessory`, 'accessory');
        break;
      }
      case 11:
        if (parent !== 'accessory') problems.push(`${where}: a thumbnail is only a section's accessory`);
        media(c.media, where);
        if (String(c.description ?? '').length > 1024) problems.push(`${where}.description: must be 1024 or fewer in length`);
        break;
      case 2:
        if (parent !== 'accessory') problems.push(`${where}: a button belongs in an action row or a section's accessory`);
        problems.push(...validateComponents([{ type: 1, components: [c] }], ids, where));
        break;
      case 12: {
        const items = (c.items ?? []) as Json[];
        if (items.length < 1 || items.length > 10) problems.push(`${where}.items: must be 1-10 in length`);
        items.forEach((it, i) => media(it.media, `${where}.items.${i}`));
        break;
      }
      case 13:
        if (!String((c.file as Json | undefined)?.url ?? '').startsWith('attachment://'))
          problems.push(`${where}.file.url: attachment:// only`);
        break;
      case 14:
        if (c.spacing !== undefined && c.spacing !== 1 && c.spacing !== 2) problems.push(`${where}.spacing: 1 or 2`);
        break;
      case 17: {
        if (parent !== 'top') problems.push(`${where}: a container is top level only`);
        const children = (c.components ?? []) as Json[];
        if (children.length < 1 || children.length > 10) problems.push(`${where}.components: must be 1-10 in length`);
        const colour = c.accent_color;
        if (colour !== undefined && colour !== null && !(Number.isInteger(colour) && Number(colour) >= 0 && Number(colour) <= 0xffffff))
          problems.push(`${where}.accent_color: 0-0xFFFFFF`);
        children.forEach((k, i) => {
          if (k.type === 17 || k.type === 11) problems.push(`${where}.components.${i}: not allowed in a container`);
          visit(k, `${where}.components.${i}`, 'container');
        });
        break;
      }
      default:
        problems.push(`${where}.type: ${String(c.type)} is not a message component`);
    }
  };
  top.forEach((c, i) => {
    if (c.type === 11) problems.push(`components.${i}: a thumbnail is only a section's accessory`);
    visit(c, `components.${i}`, 'top');
  });
  if (count > 40) problems.push(`components: ${count} in all, at most 40`);
  if (textLength > 4000) problems.push(`components: ${textLength} characters of text, at most 4000`);
  return problems;
}

function validateComponents(rows: Json[], ids = new Set<string>(), at = 'components'): string[] {
  const problems: string[] = [];
  if (at === 'components' && rows.length > 5) problems.push('components: must be 5 or fewer in length');
  rows.forEach((row, r) => {
    if (row.type !== 1) problems.push(`${at}.${r}.type: must be an action row`);
    const items = (row.components ?? []) as Json[];
    const selects = items.filter((c) => c.type === 3).length;
    if (items.length === 0 || items.length > 5 || (selects > 0 && items.length > 1))
      problems.push(`${at}.${r}.components: 1-5 buttons or one select`);
    items.forEach((c, k) => {
      const where = `${at}.${r}.components.${k}`;
      if (c.type === 2) {
        const label = String(c.label ?? '');
        if (label.length > 80) problems.push(`${where}.label: must be 80 or fewer in length`);
        if (c.style === 5) {
          if (!/^https?:\/\//.test(String(c.url ?? ''))) problems.push(`${where}.url: must be an http(s) url`);
        } else problems.push(...checkId(String(c.custom_id ?? ''), where, ids));
      } else if (c.type === 3) {
        problems.push(...checkId(String(c.custom_id ?? ''), where, ids));
        const options = (c.options ?? []) as Json[];
        if (options.length === 0 || options.length > 25) problems.push(`${where}.options: must be 1-25 in length`);
        const values = new Set(options.map((o) => String(o.value)));
        if (values.size !== options.length) problems.push(`${where}.options: values must be unique`);
        for (const o of options)
          if (String(o.value).length > 100 || String(o.label).length > 100) problems.push(`${where}.options: label and value at most 100`);
      } else problems.push(`${where}.type: unsupported in this fake`);
    });
  });
  return problems;
}

function checkId(id: string, where: string, ids: Set<string>): string[] {
  const problems: string[] = [];
  if (id.length < 1 || id.length > 100) problems.push(`${where}.custom_id: must be 1-100 in length`);
  if (ids.has(id)) problems.push(`${where}.custom_id: duplicate`);
  ids.add(id);
  return problems;
}

export function validateModal(data: Json): string[] {
  const problems: string[] = [];
  const title = String(data.title ?? '');
  if (!title || title.length > 45) problems.push('data.title: must be 1-45 in length');
  const custom = String(data.custom_id ?? '');
  if (!custom || custom.length > 100) problems.push('data.custom_id: must be 1-100 in length');
  const components = (data.components ?? []) as Json[];
  if (components.length < 1 || components.length > 5) problems.push('data.components: must be 1-5 in length');
  for (const c of components) {
    if (c.type === 10) {
      if (String(c.content ?? '').length > 4000) problems.push('text display: at most 4000');
      continue;
    }
    if (c.type !== 18) {
      problems.push('data.components: use label components (action rows are deprecated)');
      continue;
    }
    const label = String(c.label ?? '');
    if (!label || label.length > 45) problems.push('label: must be 1-45 in length');
    const input = (c.component ?? {}) as Json;
    if (input.type !== 4) problems.push('label.component: must be a text input');
    if ('label' in input) problems.push('label.component.label: not allowed inside a label');
    if (String(input.placeholder ?? '').length > 100) problems.push('placeholder: at most 100');
    const max = Number(input.max_length ?? 4000);
    if (!(max >= 1 && max <= 4000)) problems.push('max_length: 1-4000');
  }
  return problems;
}

export function validateChoices(choices: Json[]): string[] {
  const problems: string[] = [];
  if (choices.length > 25) problems.push('data.choices: must be 25 or fewer in length');
  for (const c of choices) {
    const name = String(c.name ?? '');
    if (!name || name.length > 100) problems.push('choice name: 1-100');
    if (String(c.value ?? '').length > 100) problems.push('choice value: at most 100');
  }
  return problems;
}
