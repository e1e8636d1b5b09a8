import type { Ctx } from '../context.js';
import { startFromLine } from '../flow/start.js';
import type { Reply } from '../../contracts/reply.js';

/** /swap [route]: the route (one line or step by step), addresses, refuel, confirmation. */
export const swap = (ctx: Ctx, args: string): Promise<Reply[]> => startFromLine(ctx, 'swap', args);
