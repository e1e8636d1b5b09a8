import { connect, type Socket } from 'node:net';

/** One command as MONITOR reports it: who sent it (`lua` for a script's own calls) and its arguments. */
export interface Monitored {
  source: string;
  args: string[];
}

/**
 * A MONITOR connection read line by line. ioredis's own `monitor()` switches to its monitor mode
 * one microtask after the MONITOR reply, so a busy server's next line, in the same chunk, reaches
 * the command queue and throws "Command queue state error" (it failed a CI run). Here the first
 * `+OK` ends the handshake and every later line is a command, in order.
 */
export async function monitorRedis(url: string, onCommand: (c: Monitored) => void): Promise<{ close(): void }> {
  const u = new URL(url);
  const socket: Socket = connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 6379) });
  const auth = u.password ? [u.username || 'default', decodeURIComponent(u.password)] : [];
  let pending = '';
  let oks = auth.length ? 2 : 1;
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      let end: number;
      while ((end = pending.indexOf('\r\n')) >= 0) {
        const lineText = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (lineText.startsWith('-')) return reject(new Error(`MONITOR refused: ${lineText.slice(1)}`));
        if (oks > 0) {
          if (--oks === 0) resolve();
          continue;
        }
        const c = parseMonitorLine(lineText);
        if (c) onCommand(c);
      }
    });
    socket.once('connect', () => {
      if (auth.length) socket.write(command(['AUTH', ...auth]));
      socket.write(command(['MONITOR']));
    });
  });
  socket.on('error', () => {}); // closed by the test; nothing to report
  return { close: () => socket.destroy() };
}

function command(args: string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

/** `+1700000000.123456 [0 127.0.0.1:5000] "set" "k" "v"`, arguments escaped as Redis's sdscatrepr writes them. */
function parseMonitorLine(text: string): Monitored | undefined {
  const m = /^\+\d+\.\d+ \[\d+ ([^\]]+)\] (.*)$/.exec(text);
  if (!m) return undefined;
  const args: string[] = [];
  const body = m[2] ?? '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '"') continue;
    let arg = '';
    for (i++; i < body.length && body[i] !== '"'; i++) {
      if (body[i] !== '\\') {
        arg += body[i];
        continue;
      }
      const e = body[++i];
      if (e === 'x') {
        arg += String.fromCharCode(parseInt(body.slice(i + 1, i + 3), 16));
        i += 2;
      } else arg += ({ n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' } as Record<string, string>)[e ?? ''] ?? e ?? '';
    }
    args.push(Buffer.from(arg, 'latin1').toString('utf8'));
  }
  return { source: m[1] ?? '', args };
}
