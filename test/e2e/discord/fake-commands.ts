import type { HttpAnswer } from '../../fakes/answers.js';
import type { Json } from '../../fakes/bodies.js';
import { apiError, type RouteRequest } from './fake-http.js';
import type { World } from './fake-world.js';

/** Application command routes: list, bulk overwrite, create, edit, delete (global or per server). */
const ok = (body: unknown): HttpAnswer => ({ status: 200, body });
const noContent: HttpAnswer = { status: 204 };

function commandStore(w: World, app: string, scope: string): Map<string, Json> | HttpAnswer {
  if (app !== w.applicationId) return apiError(403, 50001, 'Missing Access');
  if (scope !== 'global' && !w.guilds.has(scope)) return apiError(403, 50001, 'Missing Access');
  let store = w.commands.get(scope);
  if (!store) w.commands.set(scope, (store = new Map()));
  return store;
}

/**
 * Discord's rules for a command body that this bot could break: names 1-32 characters (lowercase
 * without spaces for slash commands), message and user commands with an empty description and no
 * options, at most 5 message commands per scope. The error as Discord words it, or undefined.
 */
function invalid(body: Json, store: Map<string, Json>): HttpAnswer | undefined {
  const type = Number(body.type ?? 1);
  const name = String(body.name ?? '');
  const formError = (what: string) => apiError(400, 50035, `Invalid Form Body (${what})`);
  if (name.length < 1 || name.length > 32) return formError('name: Must be between 1 and 32 in length.');
  if (type === 1 && !/^[-_\p{L}\p{N}]{1,32}$/u.test(name)) return formError('name: Command name is invalid');
  if (type === 3 || type === 2) {
    if (body.description !== undefined && body.description !== '')
      return formError('description: Context menu commands cannot have description');
    if (Array.isArray(body.options) && body.options.length > 0) return formError('options: Context menu commands cannot have options');
    for (const [, v] of Object.entries((body.name_localizations ?? {}) as Json))
      if (String(v).length < 1 || String(v).length > 32) return formError('name_localizations: Must be between 1 and 32 in length.');
  }
  if (type === 3 && [...store.values()].filter((c) => c.type === 3 && c.name !== name).length >= 5)
    return apiError(400, 30032, 'Maximum number of application commands reached (5 message commands)');
  return undefined;
}

/** A command as Discord stores and returns it: ids added, false flags dropped, localizations as sent or null. */
function stored(w: World, scope: string, body: Json, id = w.snowflake()): Json {
  const options = ((body.options ?? []) as Json[]).map((o) => {
    const { required, autocomplete, ...rest } = o;
    return {
      ...rest,
      ...(required ? { required: true } : {}),
      ...(autocomplete ? { autocomplete: true } : {}),
      name_localizations: o.name_localizations ?? null,
      description_localizations: o.description_localizations ?? null,
    };
  });
  return {
    ...body,
    options,
    id,
    application_id: w.applicationId,
    version: w.snowflake(),
    type: body.type ?? 1,
    default_member_permissions: body.default_member_permissions ?? null,
    dm_permission: true,
    nsfw: false,
    description: body.description ?? '',
    name_localizations: body.name_localizations ?? null,
    description_localizations: body.description_localizations ?? null,
    ...(scope === 'global'
      ? { contexts: body.contexts ?? null, integration_types: body.integration_types ?? [0] }
      : { guild_id: scope, contexts: null, integration_types: [0] }),
  };
}

/** Without `with_localizations=true` Discord leaves the localization maps out of a listing (on options too). */
function withoutLocalizations(c: Json): Json {
  const { name_localizations: _n, description_localizations: _d, ...rest } = c;
  return Array.isArray(c.options) ? { ...rest, options: (c.options as Json[]).map(withoutLocalizations) } : rest;
}

export function listCommands(w: World, r: RouteRequest, app: string, scope: string): HttpAnswer {
  const store = commandStore(w, app, scope);
  if (!(store instanceof Map)) return store;
  const all = [...store.values()];
  return ok(r.query.get('with_localizations') === 'true' ? all : all.map(withoutLocalizations));
}

export function putCommands(w: World, r: RouteRequest, app: string, scope: string): HttpAnswer {
  const store = commandStore(w, app, scope);
  if (!(store instanceof Map)) return store;
  const previous = new Map([...store.values()].map((c) => [String(c.name), String(c.id)]));
  for (const body of (r.body ?? []) as Json[]) {
    const bad = invalid(body, new Map());
    if (bad) return bad;
  }
  store.clear();
  for (const body of (r.body ?? []) as Json[]) {
    const c = stored(w, scope, body, previous.get(String(body.name)));
    store.set(String(c.id), c);
  }
  return ok([...store.values()]);
}

export function postCommand(w: World, r: RouteRequest, app: string, scope: string): HttpAnswer {
  const store = commandStore(w, app, scope);
  if (!(store instanceof Map)) return store;
  const body = r.body as Json;
  const bad = invalid(body, store);
  if (bad) return bad;
  const existing = [...store.values()].find((c) => c.name === body.name && Number(c.type ?? 1) === Number(body.type ?? 1));
  const c = stored(w, scope, body, existing ? String(existing.id) : undefined);
  store.set(String(c.id), c);
  return { status: existing ? 200 : 201, body: c };
}

export function patchCommand(w: World, r: RouteRequest, app: string, scope: string, id: string): HttpAnswer {
  const store = commandStore(w, app, scope);
  if (!(store instanceof Map)) return store;
  const current = store.get(id);
  if (!current) return apiError(404, 10063, 'Unknown application command');
  const bad = invalid({ ...current, ...(r.body as Json) }, store);
  if (bad) return bad;
  const c = stored(w, scope, { ...current, ...(r.body as Json) }, id);
  store.set(id, c);
  return ok(c);
}

export function deleteCommand(w: World, app: string, scope: string, id: string): HttpAnswer {
  const store = commandStore(w, app, scope);
  if (!(store instanceof Map)) return store;
  return store.delete(id) ? noContent : apiError(404, 10063, 'Unknown application command');
}
