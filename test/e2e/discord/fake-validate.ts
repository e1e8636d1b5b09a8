/**
 * The checks Discord applies to message and modal payloads (the limits in engineering.md B7),
 * so a payload the real API would refuse is refused here too, with Discord's 50035 shape.
 */
type Json = Record<string, unknown>;

export function validateMessage(body: Json, fileNames: readonly string[]): string[] {
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

function validateComponents(rows: Json[]): string[] {
  const problems: string[] = [];
  if (rows.length > 5) problems.push('components: must be 5 or fewer in length');
  const ids = new Set<string>();
  rows.forEach((row, r) => {
    if (row.type !== 1) problems.push(`components.${r}.type: must be an action row`);
    const items = (row.components ?? []) as Json[];
    const selects = items.filter((c) => c.type === 3).length;
    if (items.length === 0 || items.length > 5 || (selects > 0 && items.length > 1)) problems.push(`components.${r}.components: 1-5 buttons or one select`);
    items.forEach((c, k) => {
      const where = `components.${r}.components.${k}`;
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
        for (const o of options) if (String(o.value).length > 100 || String(o.label).length > 100) problems.push(`${where}.options: label and value at most 100`);
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
