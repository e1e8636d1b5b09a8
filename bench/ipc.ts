import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The benchmark runs its load in child processes (the sandbox, the bare request loop, the
 * tracking workers) so each has its own event loop; the parent drives them with small
 * request/response calls over the IPC channel.
 */

interface RpcRequest {
  rpc: number;
  cmd: string;
  args?: unknown;
}
interface RpcReply {
  rpc: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));

export class ChildHandle {
  private next = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (m: RpcReply) => {
      const p = this.pending.get(m.rpc);
      if (!p) return;
      this.pending.delete(m.rpc);
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(`${name}: ${m.error ?? 'failed'}`));
    });
    this.exited = new Promise((resolve) => {
      child.on('exit', (code) => {
        for (const p of this.pending.values()) p.reject(new Error(`${name} exited (code ${code})`));
        this.pending.clear();
        resolve(code);
      });
    });
  }

  /**
   * Starts bench/dist/bench/<file> (a compiled sibling of this module) with an IPC channel.
   * BENCH_CPU_PROF=<dir> BENCH_CPU_PROF_CHILD=<name>: that child runs under `node --cpu-prof`, its
   * profile written to <dir> when it exits (to see where a part's time goes).
   */
  static start(name: string, file: string): ChildHandle {
    const prof = process.env.BENCH_CPU_PROF && process.env.BENCH_CPU_PROF_CHILD === name;
    const execArgv = prof ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const child = fork(join(HERE, file), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
    return new ChildHandle(name, child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  call<T>(cmd: string, args?: unknown): Promise<T> {
    const rpc = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(rpc, { resolve: resolve as (v: unknown) => void, reject });
      const req: RpcRequest = { rpc, cmd, args };
      this.child.send(req, (err) => {
        if (!err) return;
        this.pending.delete(rpc);
        reject(err);
      });
    });
  }

  /** Asks the child to stop cleanly, then kills it if it does not within the grace period. */
  async stop(graceMs = 15_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.call('exit').catch(() => undefined);
    await this.exited;
    clearTimeout(timer);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

type Handler = (args: never) => unknown;

/**
 * In a child: answers the parent's calls with these handlers. 'exit' is built in: it runs
 * `onExit` (closing connections) and ends the process. The child also ends if the parent dies.
 */
export function serve(handlers: Record<string, Handler>, onExit: () => Promise<void> = async () => undefined): void {
  const reply = (m: RpcReply) => process.send?.(m);
  process.on('message', (m: RpcRequest) => {
    void (async () => {
      try {
        if (m.cmd === 'exit') {
          await onExit().catch(() => undefined);
          reply({ rpc: m.rpc, ok: true });
          setTimeout(() => process.exit(0), 20);
          return;
        }
        const h = handlers[m.cmd];
        if (!h) throw new Error(`unknown command ${m.cmd}`);
        reply({ rpc: m.rpc, ok: true, result: await h(m.args as never) });
      } catch (e) {
        reply({ rpc: m.rpc, ok: false, error: e instanceof Error ? e.message : String(e) });
      }
    })();
  });
  process.on('disconnect', () => {
    void onExit()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  });
}

/** This process's memory in MB. */
export function memoryMb(): { rss: number; heapUsed: number } {
  const m = process.memoryUsage();
  return { rss: m.rss / 1048576, heapUsed: m.heapUsed / 1048576 };
}
