import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { contextFactory, type CoreDeps } from '../bot/create-core.js';
import type { Ctx } from '../bot/kernel/context.js';
import { HandoffStore } from '../bot/kernel/handoffs.js';
import { swapMoney } from '../bot/money/model.js';
import type { ChatTarget, Incoming } from '../contracts/incoming.js';
import { routeOfSwap, shownDistribution } from '../contracts/route-times.js';
import { readRouteTimes } from '../tracking/route-times.js';
import { translator } from '../i18n/index.js';
import { ApiError, LayerswapError } from '../layerswap/errors.js';
import type { SwapDetails } from '../layerswap/schemas.js';
import { asError, type Logger } from '../log.js';
import type { AgentKey, AgentKeyStore } from './key-store.js';
import { serviceDown, swapView } from './views.js';

/**
 * What every tool of one key works with: the core's context as an agent's (platform 'mcp', the
 * key's id as user and chat, English words), the key, its store and the hand-offs. One per key
 * and server instance; it holds no state of its own beyond them.
 */
export interface McpDeps {
  core: CoreDeps;
  keys: AgentKeyStore;
  /** The Telegram bot's username, for hand-off links (TELEGRAM_BOT_USERNAME). */
  botUsername?: string | undefined;
  logger: Logger;
}

export class Agent {
  readonly ctx: Ctx;
  readonly handoffs: HandoffStore;
  readonly target: ChatTarget;

  constructor(
    readonly deps: McpDeps,
    readonly key: AgentKey,
    makeCtx: ReturnType<typeof contextFactory>,
  ) {
    const incoming: Incoming = { platform: 'mcp', userId: key.id, userName: key.label, chatId: key.id, chatKind: 'private' };
    this.ctx = makeCtx(incoming, 'en', translator('en'));
    this.handoffs = new HandoffStore(deps.core.redis, deps.core.keyPrefix);
    this.target = { platform: 'mcp', chatId: key.id, chatKind: 'private' };
  }

  now(): number {
    return this.ctx.now();
  }

  /** A hand-off token and its links: the Telegram deep link when the bot's username is known, and the /start line any chat takes. */
  newHandoffToken(): string {
    return randomBytes(12).toString('base64url');
  }

  handoffLinks(token: string) {
    const payload = `ag_${token}`;
    return {
      ...(this.deps.botUsername ? { url: `https://t.me/${this.deps.botUsername}?start=${payload}` } : {}),
      start_command: `/start ${payload}`,
      note: 'Give this link to the person: it opens their private chat with the bot on this swap. The first person to open it owns it.',
    };
  }

  /** The swap, if this key owns it; otherwise the same "not found" as a swap that does not exist (no oracle). */
  async ownedSwap(swapId: string): Promise<SwapDetails | undefined> {
    if (!(await this.deps.keys.owns(this.key.id, swapId))) return undefined;
    return this.ctx.api.getSwap(swapId);
  }

  /** The swap as the agent sees it, from the money model with our record of the refund address. */
  async view(details: SwapDetails) {
    const entry = await this.ctx.history.entry('mcp', this.key.id, details.swap.id);
    const route = routeOfSwap(details.swap);
    const read = route
      ? await readRouteTimes(this.deps.core.redis, this.deps.core.keyPrefix, route, this.now()).catch(() => undefined)
      : undefined;
    const times = shownDistribution(read?.seen);
    const seen = await this.ctx.tracking.depositSeen?.(details.swap.id).catch(() => false);
    const m = swapMoney(details, this.now(), {
      ...(seen ? { depositSeen: true } : {}),
      ...(times ? { typicalMs: times.p50Ms } : {}),
      ...(entry && entry.refund !== undefined ? { refundAddress: entry.refund } : {}),
    });
    return swapView(details, m, { now: this.now(), observed: times });
  }
}

/** A tool's answer: the data as structured content, and the same JSON as text for clients that show only text. */
export function result(data: object, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(data) }],
    structuredContent: data as Record<string, unknown>,
    ...(isError ? { isError } : {}),
  };
}

/** Runs a tool body; the service's failures and anything unexpected become an error result, never a crash. */
export async function guarded(agent: Agent, tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError)
      return result(
        { error: err.code ? err.code.toLowerCase() : 'service_refused', message: err.serviceMessage || 'the swap service refused this' },
        true,
      );
    if (err instanceof LayerswapError) return result(serviceDown(), true);
    agent.deps.logger.error({ err: asError(err), tool, keyId: agent.key.id }, 'mcp: a tool failed');
    return result({ error: 'internal', message: 'something went wrong on the server; try again' }, true);
  }
}
