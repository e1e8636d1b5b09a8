import { randomUUID } from 'node:crypto';
import type { LayerswapApi, RequestOptions } from './api.js';
import { ApiError, ConnectionError, InvalidRequestError, ResponseShapeError, UnconfirmedCreateError } from './errors.js';
import { formatNumber } from './query.js';
import { asError } from '../log.js';
import { API, count, type RequestLoop } from './request-loop.js';
import { readEnvelope } from './response.js';
import { SwapDetailsSchema, SwapIdSchema, type CreatedSwap, type SwapDetails } from './schemas.js';
import { type CreateSwapParams } from './params.js';

/**
 * POST /swaps, apart from the other endpoints because money hangs on it: sent at most once unless
 * an attempt certainly never left this machine, and a 2xx answer that names the swap is salvaged
 * however cut down the rest is (the swap exists), then completed from GET /swaps/{id}.
 */

/**
 * Sends POST /swaps at most once, unless an attempt certainly never left this machine
 * (connection refused). reference_id is fixed before the first attempt, so a retry, or a
 * person checking after an UnconfirmedCreateError, sees the same one.
 */
export async function createSwap(
  loop: RequestLoop,
  getSwap: LayerswapApi['getSwap'],
  params: CreateSwapParams,
  options?: RequestOptions,
): Promise<CreatedSwap> {
  const label = `POST ${API}/swaps`;
  // Reads work without a key; a swap is the one thing that needs it (said before anything is sent).
  if (loop.keyless) throw new InvalidRequestError(label, 'apiKey', 'creating a swap needs a Layerswap API key (LAYERSWAP_API_KEY)');
  if (params.amount !== undefined && params.amount !== null) formatNumber(params.amount, 'amount', label);
  const referenceId = params.reference_id ?? randomUUID();
  const body = JSON.stringify({ ...params, reference_id: referenceId });
  // One correlation id per user action, like reference_id: the service can join the attempts.
  const headers = { ...loop.postHeaders, 'x-ls-correlation-id': randomUUID() };
  const maxRetries = options?.maxRetries ?? loop.maxRetries;

  for (let attempt = 0; ; attempt++) {
    options?.signal?.throwIfAborted();
    loop.log.debug({ request: label, referenceId, attempt }, 'creating swap');
    const started = performance.now();
    let raw;
    try {
      raw = await loop.send({
        method: 'POST',
        path: `${API}/swaps`,
        label,
        headers,
        body,
        timeoutMs: options?.timeoutMs ?? loop.timeoutMs,
        signal: options?.signal,
      });
    } catch (err) {
      count(label, started, err);
      if (err instanceof ConnectionError && err.notSent) {
        if (attempt >= maxRetries) throw err; // nothing was created: an ordinary connection error
        await loop.pause(label, err, attempt, options?.signal);
        continue;
      }
      loop.log.warn({ request: label, referenceId, err: asError(err, { secrets: loop.secrets }) }, 'swap creation unconfirmed');
      throw new UnconfirmedCreateError(label, referenceId, err);
    }
    loop.log.debug({ request: label, status: raw.status, attempt, ms: Math.round(performance.now() - started) }, 'layerswap answer');
    let created: { details: SwapDetails; hadStatus: boolean };
    try {
      created = { details: readEnvelope(raw, SwapDetailsSchema, label, loop.secrets), hadStatus: true };
      count(label, started);
      loop.noteAnswer();
    } catch (err) {
      count(label, started, err);
      loop.noteAnswer(err);
      // A readable refusal below 500 (an error envelope, ASP.NET validation details, a 429):
      // the request was turned away, so nothing was created.
      if (err instanceof ApiError && err.status < 500 && err.code !== 'NON_JSON_RESPONSE') throw err;
      // A 2xx is an answer: if it names the swap, the swap exists, however cut down the rest is.
      const salvaged = err instanceof ResponseShapeError ? salvageCreated(raw.text) : undefined;
      if (!salvaged) {
        // 5xx, HTML from a proxy, or a 2xx without a readable swap id: the swap may exist.
        loop.log.warn(
          { request: label, status: raw.status, referenceId, err: asError(err, { secrets: loop.secrets }) },
          'swap creation unconfirmed',
        );
        throw new UnconfirmedCreateError(label, referenceId, err);
      }
      loop.log.warn(
        { request: label, swapId: salvaged.details.swap.id, err: asError(err, { secrets: loop.secrets }) },
        'swap created; its answer was cut down',
      );
      created = salvaged;
    }
    return completeCreated(loop, getSwap, created.details, created.hadStatus, params, options);
  }
}

/**
 * A create answer without the swap's route or date (the live capture sends only {id, status})
 * is filled in from GET /swaps/{id}, with the usual GET retries. If that fails too, what the
 * answer had is returned with `partial: true`: the id is certain, so the caller can still show
 * it, record it and follow it. Never throws: the swap exists.
 */
async function completeCreated(
  loop: RequestLoop,
  getSwap: LayerswapApi['getSwap'],
  details: SwapDetails,
  hadStatus: boolean,
  params: CreateSwapParams,
  options?: RequestOptions,
): Promise<CreatedSwap> {
  const s = details.swap;
  if (hadStatus && s.source_network && s.source_token && s.destination_network && s.destination_token && s.created_date) return details;
  try {
    const fetched = await getSwap(s.id, params.source_address ? { source_address: params.source_address } : {}, {
      signal: options?.signal,
      timeoutMs: options?.timeoutMs,
    });
    // The GET is the fuller view; the create answer's deposit actions and quote fill its gaps.
    return {
      ...details,
      ...fetched,
      quote: fetched.quote ?? details.quote,
      deposit_actions: fetched.deposit_actions?.length ? fetched.deposit_actions : details.deposit_actions,
    };
  } catch (err) {
    loop.log.warn(
      { request: `GET ${API}/swaps/{swapId}`, swapId: s.id, err: asError(err, { secrets: loop.secrets }) },
      'could not complete a cut-down create answer',
    );
    return { ...details, partial: true };
  }
}

/**
 * The swap a 2xx create answer names, when the answer does not fit the schema as a whole: its id
 * (it must be usable later), its status ("created" when none was readable), and whatever else
 * parses. Undefined when there is no usable id.
 */
function salvageCreated(text: string): { details: SwapDetails; hadStatus: boolean } | undefined {
  let data: unknown;
  try {
    data = (JSON.parse(text) as { data?: unknown } | null)?.data;
  } catch {
    return undefined;
  }
  const swap = isRecord(data) && isRecord(data.swap) ? data.swap : undefined;
  const id = SwapIdSchema.safeParse(swap?.id);
  if (!swap || !id.success || !isRecord(data)) return undefined;
  const hadStatus = typeof swap.status === 'string';
  const status = hadStatus ? swap.status : 'created';
  const whole = SwapDetailsSchema.safeParse({ ...data, swap: { ...swap, id: id.data, status } });
  const details = whole.success ? whole.data : SwapDetailsSchema.parse({ swap: { id: id.data, status } });
  return { details, hadStatus };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
