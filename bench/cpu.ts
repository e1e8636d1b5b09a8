import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/**
 * CPU time per process from /proc (Linux), to say where a throughput limit comes from. Elsewhere
 * it reports nothing and the benchmark says so.
 */

const TICKS_PER_SECOND = 100;

function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The local redis-server's pid, when Redis runs on this machine. */
export async function redisPid(client: Redis): Promise<number | undefined> {
  const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))?.[1]);
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').includes('redis') ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Redis commands processed so far (all clients). */
export async function redisCommands(client: Redis): Promise<number> {
  return Number(/total_commands_processed:(\d+)/.exec(await client.info('stats'))?.[1] ?? NaN);
}

/** Share of one core each process used between two readings, e.g. { worker: 0.93 }. */
export class CpuMeter {
  private start = new Map<string, number>();
  private t0 = 0;

  constructor(private readonly pids: Record<string, number | undefined>) {}

  begin(): void {
    this.t0 = performance.now();
    this.start = new Map();
    for (const [name, pid] of Object.entries(this.pids)) {
      const s = cpuSeconds(pid);
      if (s !== undefined) this.start.set(name, s);
    }
  }

  /** "worker 93%, sandbox 31%, redis 40%" of one core each, or '' when /proc is unavailable. */
  end(): string {
    const seconds = (performance.now() - this.t0) / 1000;
    const parts: string[] = [];
    for (const [name, pid] of Object.entries(this.pids)) {
      const a = this.start.get(name);
      const b = cpuSeconds(pid);
      if (a === undefined || b === undefined) continue;
      parts.push(`${name} ${Math.round(((b - a) / seconds) * 100)}%`);
    }
    return parts.join(', ');
  }
}
