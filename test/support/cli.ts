import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { WAIT_MS } from './wait.js';

/** The built CLI (test/global-setup.ts compiles it once per run), as users run it. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/**
 * Lines that take the terminal chat from a quote to a created swap: Swap this, destination
 * address, no refund address, no refuel, Confirm. Buttons are numbered by a running counter
 * (quote card 1-2, address question's Cancel 3, Skip 4 and Cancel 5, refuel 6-8, Confirm 9).
 */
export const CONSOLE_SWAP_SCRIPT = [
  '/quote 100 USDC from arbitrum to base',
  '1', // Swap this
  '0x1111111111111111111111111111111111111111', // destination address
  '#5', // skip the refund address (a question is open: # presses; #4 is the recommended one, the address above)
  '8', // no refuel
  '10', // Confirm
].join('\n');

/** Runs `swapbot <args>` with lines on stdin, as `printf ... | swapbot console` would. */
export function runCli(
  args: string[],
  stdin: string,
  env: Record<string, string>,
  timeoutMs = WAIT_MS,
  cwd?: string,
  /** Called with all of stdout so far at each chunk: a test acts on what the chat has shown. */
  onStdout?: (stdout: string) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      ...(cwd ? { cwd } : {}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`swapbot did not exit within ${timeoutMs} ms.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

/** A TCP port free on 127.0.0.1 right now (the OS picks it), for a process a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A long-running `swapbot <command>` (web, worker) a test started: its process, all it printed so far, its exit. */
export interface CliProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `swapbot <command>` with only `env` (and PATH), as a deployment runs it. */
export function startCli(command: string, env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, [CLI, command], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}
