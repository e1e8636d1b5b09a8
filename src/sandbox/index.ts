/** The sandbox: a local stand-in of the Layerswap v2 API. Import from here. */
export { startSandbox, DEFAULT_TIMINGS } from './server.js';
export { runSandboxCli, parseSandboxArgs, SANDBOX_USAGE, DEFAULT_CLI_PORT, type SandboxCliIo } from './cli.js';
export { ManualClock, SystemClock, SANDBOX_FAIL_REASONS } from './types.js';
export type { DepositOptions, DepositOutcome, ExternalSwapInit, SandboxWebhookOptions, SandboxClock, SandboxFault, SandboxOptions, SandboxServer, SandboxTimings } from './types.js';
