import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentKeyStore } from '../../src/mcp/key-store.js';
import { CLI } from '../support/cli.js';
import { testRedis, testRedisUrl, uniquePrefix } from '../support/redis.js';
import { startMcpWorld } from './support.js';

/**
 * The protocol's own tools, headless from npm (pinned), against swapbot:
 * - the conformance suite's `server` mode against /mcp. It speaks Streamable HTTP only and sends no
 *   headers of its own, so a local proxy adds this test's bearer key. What swapbot is expected to
 *   fail, and why, is test/mcp/conformance-baseline.yml; anything else failing fails this test.
 * - the inspector's `--cli` mode against `swapbot mcp` over stdio, as a desktop assistant spawns it.
 * Both need Node 22.19 or later: this Node when it is one, else the registry's node@24 through npx
 * (as .ci/run runs the second suite). Without either the tests are skipped, saying so.
 */
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.16';
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const BASELINE = fileURLToPath(new URL('./conformance-baseline.yml', import.meta.url));

/** npx arguments that put a Node ≥ 22.19 first on PATH ([] when this one is), or undefined. */
function node22(): string[] | undefined {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  if (major > 22 || (major === 22 && minor >= 19)) return [];
  const probe = spawnSync('npx', ['-y', '-p', 'node@24', 'node', '--version'], { encoding: 'utf8' });
  return probe.status === 0 && /^v(2[4-9]|[3-9]\d)\./.test(probe.stdout.trim()) ? ['-p', 'node@24'] : undefined;
}
const nodeArgs = node22();
const SKIP = nodeArgs === undefined;
if (SKIP) console.warn(`conformance: skipped: Node ${process.version} is older than 22.19 and npx cannot fetch node@24`);

/** Runs a pinned npm package's bin through npx on Node ≥ 22.19: its exit code, stdout, and both streams. */
function npx(args: string[]): Promise<{ code: number | null; stdout: string; out: string }> {
  return new Promise((resolve) => {
    // The bins start with `#!/usr/bin/env node`: this Node (when it is new enough) first on PATH.
    const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
    const child = spawn('npx', ['-y', ...(nodeArgs ?? []), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH } });
    let out = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, out }));
  });
}

describe.skipIf(SKIP)('the MCP conformance suite against /mcp (Streamable HTTP)', () => {
  let world: Awaited<ReturnType<typeof startMcpWorld>>;
  let proxy: http.Server | undefined;
  let proxyPort = 0;
  beforeAll(async () => {
    world = await startMcpWorld();
    const { secret } = await world.keys.create('conformance', {});
    proxy = http.createServer((req, res) => {
      const headers = { ...req.headers, authorization: `Bearer ${secret}` };
      const up = http.request({ host: '127.0.0.1', port: world.port, path: req.url, method: req.method, headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy?.listen(0, '127.0.0.1', r));
    proxyPort = (proxy.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => (proxy ? proxy.close(() => r()) : r()));
    await world?.close();
  });

  it('passes every scenario that applies to it, and fails only those the baseline names', async () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
    try {
      const url = `http://localhost:${proxyPort}/mcp`;
      const run = await npx(['-p', CONFORMANCE, 'conformance', 'server', '--url', url, '--expected-failures', BASELINE, '-o', outDir]);
      const status = new Map<string, string[]>();
      for (const dir of readdirSync(outDir)) {
        const checks = JSON.parse(readFileSync(path.join(outDir, dir, 'checks.json'), 'utf8')) as Array<{ id: string; status: string }>;
        for (const c of checks) status.set(c.id, [...(status.get(c.id) ?? []), c.status]);
      }
      // What any MCP server must do, and swapbot does: initialise, answer ping, list its tools and resources.
      for (const id of ['server-initialize', 'ping', 'tools-list', 'resources-list']) expect(status.get(id), id).toEqual(['SUCCESS']);
      expect(run.out).not.toContain('Unexpected');
      expect(run.code, run.out.slice(-3000)).toBe(0);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(SKIP)('the MCP inspector (--cli) against `swapbot mcp` (stdio)', () => {
  const prefix = uniquePrefix('mcpinsp');
  const redis = testRedis(prefix);
  it('lists the tools and calls one over stdio, as a desktop assistant would', async () => {
    const env = { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix };
    // The key is made in-process: test/mcp/stdio-cli.test.ts runs `swapbot mcp-key create` itself.
    const { secret } = await new AgentKeyStore(redis, prefix).create('inspector', {});
    const server = [
      ...Object.entries({ ...env, SWAPBOT_MCP_KEY: secret }).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      process.execPath,
      CLI,
      'mcp',
    ];
    const inspect = (...args: string[]) => npx(['-p', INSPECTOR, 'mcp-inspector', '--cli', ...server, ...args]);
    const json = (r: { stdout: string }) => JSON.parse(r.stdout) as Record<string, unknown>;

    const listed = await inspect('--method', 'tools/list');
    expect(listed.code, listed.out.slice(-2000)).toBe(0);
    const names = (json(listed).tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['quote', 'create_swap', 'get_swap', 'follow_swap']));

    const found = await inspect('--method', 'tools/call', '--tool-name', 'find_network', '--tool-arg', 'query=arb');
    expect(found.code, found.out.slice(-2000)).toBe(0);
    expect(json(found).structuredContent).toMatchObject({ name: 'ARBITRUM_MAINNET' });
  });
});
