/** What config.ts checks in a Redis URL or node list, and what redis.ts reads from it (the database number). */
/** Why a REDIS_CLUSTER_NODES value is unusable, or undefined when it is fine (the secret is never quoted). */
export function clusterNodesProblem(value: string): string | undefined {
  const entries = value.split(',').map((e) => e.trim());
  if (entries.some((e) => e === '')) return 'list nodes as host:port separated by commas, such as 10.0.0.1:6379,10.0.0.2:6379';
  for (const entry of entries) {
    if (/^rediss?:\/\//.test(entry)) {
      try {
        if (new URL(entry).hostname) continue;
      } catch {
        // reported below
      }
      return 'an entry that starts with redis:// must be a URL such as redis://:password@10.0.0.1:6379';
    }
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65_535)
      return 'each entry must be host:port (or a redis:// URL): list nodes such as 10.0.0.1:6379,10.0.0.2:6379';
  }
  return undefined;
}

/** Redis numbers its databases 0, 1, 2…: anything else after the host (redis://host/notadb) is refused, not read as 0. */
export function redisDb(redisUrl: string): number | string {
  const u = new URL(redisUrl);
  const raw = u.protocol === 'unix:' ? (u.searchParams.get('db') ?? '') : u.pathname.replace(/^\//, '');
  if (raw === '') return 0;
  const where = u.protocol === 'unix:' ? 'the ?db= of a unix:// URL' : 'the path after the host';
  if (!/^\d+$/.test(raw)) return `${where} is the database number, such as redis://127.0.0.1:6379/0 (got "${raw.slice(0, 20)}")`;
  // Redis takes SELECT up to INT_MAX - 1, and has 16 databases (0-15) unless its config says more.
  if (Number(raw) > 2_147_483_646) return `the database number ${raw.slice(0, 20)} is out of range (0-15 on a default Redis)`;
  return Number(raw);
}

export function redisDbProblem(redisUrl: string): string | undefined {
  try {
    const db = redisDb(redisUrl);
    return typeof db === 'string' ? db : undefined;
  } catch {
    return undefined; // not a URL: reported by the URL check
  }
}

export function redisPassword(redisUrl: string): string[] {
  try {
    const u = new URL(redisUrl);
    return u.password ? [u.password, decodeURIComponent(u.password)] : [];
  } catch {
    return [];
  }
}
