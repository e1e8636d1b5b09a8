#!/usr/bin/env node
import { existsSync } from 'node:fs';
import module from 'node:module';
import { parseArgs } from 'node:util';
import type { Runtime } from './app/runtime.js';
import { StartupError } from './app/startup-error.js';
import { ConfigError, loadConfig, type ProcessKind } from './config.js';
import { asError, consoleLogFile, createLogger, type Logger } from './log.js';

// Each command imports only the modules it runs (`await import` in its branch): importing them all
// cost every start, `--help` included, 1.8 s of CPU (docs/development.md, "Where the suite's time goes").

// Node ≥ 22.1 keeps V8's compiled code of what a start loads (under the OS's temp directory), so the
// next start of any command skips compiling it; Node 20 has no such cache.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const USAGE = `swapbot: a Telegram, Discord and terminal bot for the Layerswap swap API

Usage: swapbot <command> [options]

Commands:
  start                 everything in one process (adapters + tracking); the terminal chat
                        when no TELEGRAM_BOT_TOKEN or DISCORD_TOKEN is set
  web                   platform adapters only (Telegram, Discord, webhooks, /health on PORT)
  worker                tracking only (poll and notify queues; /health and /metrics on PORT)
  console [--linger S] [--lang L]
                        the terminal chat, with tracking in-process
  sandbox [--port N] [--api-key KEY] [--speed X] [--chain [RPC_URL]]
                        a local stand-in of the Layerswap API
  register-commands     Telegram command menus and Discord slash commands (only what changed)
  mcp                   the MCP server for AI agents over stdio (key: SWAPBOT_MCP_KEY), with
                        tracking in-process; /mcp on the web process serves it over HTTP
  mcp-key create --label NAME [--max-usd-per-swap N] [--max-swaps-per-day N] | list | set ID | revoke ID
                        agents' bearer keys (the secret is printed once)

Configuration comes from the environment and from .env in the working directory (the environment
wins): see .env.example and docs/configuration.md.`;

async function main(argv: string[]): Promise<number> {
  const [command = 'help', ...rest] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  loadDotEnv();
  if (command === 'sandbox') {
    const { runSandboxCli } = await import('./sandbox/cli.js');
    await runSandboxCli(rest, process.env);
    return 0;
  }
  if (command === 'mcp' || command === 'mcp-key') return runMcp(command, rest);
  if (!['start', 'web', 'worker', 'console', 'register-commands'].includes(command)) {
    process.stderr.write(`swapbot: unknown command "${command.slice(0, 40)}"\n\n${USAGE}\n`);
    return 2;
  }

  const config = loadConfig(process.env, command as ProcessKind);
  secretsForErrors = config.secretValues;
  const consoleMode = command === 'console' || (command === 'start' && !config.telegramEnabled && !config.discordEnabled);
  const logger = createLogger({
    // The terminal chat owns the terminal: logs go as readable lines to a file under DATA_DIR (warn
    // and up unless LOG_LEVEL is set), and only errors also to stderr, so none lands inside the chat.
    level: consoleMode && !process.env.LOG_LEVEL ? 'warn' : config.LOG_LEVEL,
    secrets: config.secretValues,
    destination: consoleMode ? consoleLogFile(config.DATA_DIR) : process.stdout,
    ...(consoleMode ? { errorsTo: process.stderr } : {}),
    format: consoleMode ? 'line' : 'json',
  });

  if (command === 'register-commands') {
    const { registerCommands } = await import('./app/register-commands.js');
    await registerCommands(config, logger);
    return 0;
  }

  const role = consoleMode ? 'console' : (command as 'start' | 'web' | 'worker');
  const { checkPersistence, createRuntime, untilRedisAnswers } = await import('./app/runtime.js');
  const rt = await createRuntime(config, logger, role);
  // A development chain (SANDBOX_CHAIN=1): its key is a well-known one (DEV_KEYS), printed so any wallet tool can send.
  // Not in `swapbot mcp`, whose stdout is the protocol.
  const chain = rt.sandbox?.chain;
  if (chain) process.stdout.write(`chain rpc: ${chain.url}\nchain funded key: ${chain.fundedKey}\n`);
  const solana = rt.sandbox?.solana;
  if (solana) process.stdout.write(`solana rpc: ${solana.url}\nsolana funded key: ${solana.fundedKey}\n`);
  const stop = onSignals(rt, logger);
  try {
    if (role === 'console') {
      const { values } = parseArgs({ args: rest, options: { linger: { type: 'string' }, lang: { type: 'string' } }, strict: true });
      // --lang ru, else the terminal's own language (LC_ALL, LC_MESSAGES, LANG as POSIX orders them).
      const locale = values.lang ?? (process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || undefined);
      const linger = values.linger === undefined ? config.CONSOLE_LINGER_SECONDS : parseLinger(values.linger);
      const web = command === 'start' ? await (await import('./app/web.js')).startWeb(rt, { alwaysServeHttp: false }) : undefined;
      if (web?.adapters.length) logger.info({ adapters: web.adapters }, 'web adapters running');
      const [{ runConsole }, { startTrackingWorkers }] = await Promise.all([import('./app/console.js'), import('./app/messengers.js')]);
      // Ctrl-C (or SIGTERM) ends the chat at once; the runtime then drains as usual.
      await Promise.race([
        runConsole(rt, {
          input: process.stdin,
          output: process.stdout,
          isTTY: Boolean(process.stdin.isTTY && process.stdout.isTTY),
          lingerSeconds: linger,
          ...(locale ? { locale, localeExplicit: values.lang !== undefined } : {}),
          startWorkers: (messenger) => startTrackingWorkers(rt, { console: messenger }),
        }),
        stop.stopped,
      ]);
      await rt.close();
      return 0;
    }
    // Tracking's workers start once Redis answers: until then the process waits quietly (the
    // outage log said once what is wrong) with /health at 503, rather than dying on a retry limit.
    // Tracking's workers start only on a Redis that keeps them across its restart, or with one warning line.
    const tracking = (waiting: string) =>
      untilRedisAnswers(rt, waiting).then(async (up) => {
        if (!up) return undefined;
        await checkPersistence(rt);
        return (await import('./app/messengers.js')).startTrackingWorkers(rt);
      });
    if (role === 'web') {
      // web does not wait for Redis to listen: the check runs once it answers, and a refusal ends the process.
      void untilRedisAnswers(rt)
        .then((up) => (up ? checkPersistence(rt) : undefined))
        .catch(async (err: unknown) => {
          report(err, secretsForErrors);
          await rt.close();
          process.exit(1);
        });
    }
    if (role === 'web' || role === 'start') {
      const { startWeb } = await import('./app/web.js');
      const web = await startWeb(rt, { alwaysServeHttp: role === 'web' });
      if (role === 'start')
        await tracking(`swapbot start: Redis does not answer (check REDIS_URL: see the Redis line above); tracking starts once it does`);
      logger.info({ adapters: web.adapters }, `swapbot ${role}: running`);
    } else {
      // No routes: /health (Redis answers, workers running) for the container's check, /metrics for Prometheus.
      const port = config.WORKER_PORT ?? config.PORT;
      const waiting = new Set(['tracking']);
      const [{ serveHttp }, { healthy }] = await Promise.all([import('./app/http-server.js'), import('./app/health.js')]);
      const server = await serveHttp(new Map(), { port, health: () => healthy(rt, waiting), metricsToken: config.METRICS_TOKEN }).catch(
        (err: unknown) => {
          if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
          const which = config.WORKER_PORT === undefined ? 'PORT' : 'WORKER_PORT';
          throw new StartupError(
            `the worker's /health and /metrics port ${port} (${which}) is in use: when web and worker run on one host with the same PORT, set WORKER_PORT to another port`,
          );
        },
      );
      rt.onClose('http server', () => server.close());
      await tracking(
        'swapbot worker: Redis does not answer (check REDIS_URL: see the Redis line above); /health answers 503 and tracking starts once it does',
      );
      waiting.delete('tracking');
      if (!rt.closing) logger.info({ port: server.port }, 'swapbot worker: polling and notifying (/health and /metrics on this port)');
    }
    await stop.stopped;
    return 0;
  } catch (err) {
    await rt.close();
    throw err;
  }
}

/**
 * `swapbot mcp` (stdio: stdout is the protocol, so logs go to stderr) and `swapbot mcp-key`. The
 * keys live in the deployment's Redis (REDIS_URL, else the embedded one under DATA_DIR).
 */
async function runMcp(command: 'mcp' | 'mcp-key', rest: string[]): Promise<number> {
  const config = loadConfig(process.env, 'console');
  secretsForErrors = config.secretValues;
  const logger = createLogger({
    level: process.env.LOG_LEVEL ? config.LOG_LEVEL : 'warn',
    secrets: config.secretValues,
    destination: process.stderr,
    format: 'line',
  });
  const { McpCliError, runMcpKeyCli, runMcpStdio } = await import('./mcp/cli.js');
  if (command === 'mcp-key') {
    const [{ startEmbeddedRedis }, { clusterUrl, createRedis }] = await Promise.all([import('./redis-server.js'), import('./redis.js')]);
    const embedded =
      config.REDIS_URL || config.REDIS_CLUSTER_NODES ? undefined : await startEmbeddedRedis({ dataDir: config.DATA_DIR, logger });
    const url = config.REDIS_CLUSTER_NODES ? clusterUrl(config.REDIS_CLUSTER_NODES) : (config.REDIS_URL ?? embedded?.url ?? '');
    const redis = createRedis(url, { logger, name: 'mcp-key', maxRetriesPerRequest: 3 });
    try {
      return await runMcpKeyCli(rest, redis, config.REDIS_PREFIX, (l) => process.stdout.write(`${l}\n`));
    } catch (err) {
      if (!(err instanceof McpCliError) && !(err instanceof TypeError)) throw err;
      process.stderr.write(`swapbot mcp-key: ${err.message}\n`);
      return 2;
    } finally {
      await redis.quit().catch(() => undefined);
      await embedded?.stop();
    }
  }
  const [{ createRuntime, untilRedisAnswers }, { startTrackingWorkers }] = await Promise.all([
    import('./app/runtime.js'),
    import('./app/messengers.js'),
  ]);
  const rt = await createRuntime(config, logger, 'console');
  const stop = onSignals(rt, logger);
  try {
    await untilRedisAnswers(rt);
    await startTrackingWorkers(rt);
    const mcp = await runMcpStdio({
      coreDeps: rt.coreDeps,
      redisUrl: rt.redisUrl,
      secret: config.SWAPBOT_MCP_KEY,
      botUsername: config.TELEGRAM_BOT_USERNAME,
      logger,
    });
    rt.onClose('mcp stdio', mcp.close);
    await Promise.race([mcp.closed, stop.stopped]);
    await rt.close();
    return 0;
  } catch (err) {
    await rt.close();
    if (err instanceof McpCliError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

/** `.env` in the working directory, when there is one; a variable the environment sets wins over the file. */
function loadDotEnv(): void {
  if (!existsSync('.env')) return;
  try {
    process.loadEnvFile('.env');
  } catch (err) {
    throw new ConfigError([`.env could not be read: ${(err as Error).message}`]);
  }
}

function parseLinger(v: string): number {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !Number.isFinite(n))
    throw new StartupError(`--linger takes a number of seconds, such as --linger 30 (got "${v.slice(0, 20)}")`);
  return n;
}

/** Process managers kill at 30 s (Heroku) or so: whatever hangs, we are gone before that. */
const SHUTDOWN_DEADLINE_MS = 24_000;

/**
 * SIGTERM/SIGINT drain: the update or job in hand finishes, nothing new starts, connections close.
 * A hard deadline exits anyway, naming what had not closed, so a hanging Telegram or Redis never
 * keeps the process past its manager's patience.
 */
function onSignals(rt: Runtime, logger: Logger): { stopped: Promise<void> } {
  let resolve!: () => void;
  const stopped = new Promise<void>((r) => (resolve = r));
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    logger.info(`${signal}: finishing the work in hand, then stopping`);
    const deadline = setTimeout(() => {
      const hung = rt.unfinished();
      logger.error(
        { stillClosing: hung },
        `shutdown: not done ${SHUTDOWN_DEADLINE_MS / 1000} s after ${signal} (still closing: ${hung.join(', ') || 'nothing named'}); exiting now`,
      );
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    // Only a timer: a clean close exits through main() as usual.
    deadline.unref();
    rt.close().then(resolve, (err: unknown) => {
      logger.error({ err: asError(err, { secrets: secretsForErrors }) }, 'shutdown failed');
      resolve();
    });
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
  return { stopped };
}

function report(err: unknown, secrets: readonly string[]): void {
  if (err instanceof ConfigError || err instanceof StartupError) {
    process.stderr.write(`${err.message}\n`);
    return;
  }
  process.stderr.write(`swapbot: ${asError(err, { secrets }).message}\n`);
}

/** Filled once main() has parsed the config, so late errors are scrubbed of its secrets. */
let secretsForErrors: readonly string[] = [];
process.on('unhandledRejection', (err) => {
  report(err, secretsForErrors);
});
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    report(err, secretsForErrors);
    process.exit(err instanceof ConfigError ? 2 : 1);
  },
);
