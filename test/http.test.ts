import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyTooLarge, CLOSE_CONNECTION, listen, readBody, type Listening } from '../src/http.js';

/**
 * The shared HTTP helper over real sockets: the capped body reader answers 413 for a body over the
 * cap whether its length is declared or it is streamed in chunks.
 */
const CAP = 1_000;
let server: Listening | undefined;
afterEach(async () => {
  await server?.close({ force: true });
  server = undefined;
});

/** Answers the size of the body it read, or the helper's 413. */
async function start(): Promise<Listening> {
  server = await listen(
    http.createServer((req, res) => {
      readBody(req, CAP).then(
        (body) => res.writeHead(200).end(String(body.length)),
        (err: unknown) => {
          if (err instanceof BodyTooLarge) res.writeHead(err.status, CLOSE_CONNECTION).end(err.message);
          else res.writeHead(400).end();
        },
      );
    }),
    { port: 0, host: '127.0.0.1' },
  );
  return server;
}

/** A raw request; resolves with everything received once the server closes the connection. */
function raw(port: number, head: string, chunks: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(head);
      for (const c of chunks) socket.write(c);
    });
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    socket.on('close', () => resolve(data));
    socket.on('error', (e) => (data ? resolve(data) : reject(e)));
  });
}

describe('http helper', () => {
  it('reads a body under the cap', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/`, { method: 'POST', body: 'x'.repeat(CAP) });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(String(CAP));
  });

  it('answers 413 to a declared length over the cap', async () => {
    const s = await start();
    const got = await raw(s.port, `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n`, []);
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
    expect(got).toContain(`body over ${CAP} bytes`);
  });

  it('answers 413 to a chunked body that grows past the cap, without reading it all', async () => {
    const s = await start();
    const chunk = (n: number) => `${n.toString(16)}\r\n${'y'.repeat(n)}\r\n`;
    // Never terminated: the server must answer from the cap alone.
    const got = await raw(s.port, `POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`, [chunk(600), chunk(600)]);
    expect(got).toMatch(/^HTTP\/1\.1 413 /);
  });
});
