import type { HttpAnswer } from '../../fakes/answers.js';
import type { FileRecord, Json } from '../../fakes/bodies.js';

/** A request as the fake's routes see it (after test/fakes/bodies.ts decoded it). */

export interface RouteRequest {
  method: string;
  /** Path after /api/v10. */
  path: string;
  query: URLSearchParams;
  body: Json | Json[] | undefined;
  files: FileRecord[];
  authorized: boolean;
}

export const apiError = (status: number, code: number, message: string, errors?: string[]): HttpAnswer => ({
  status,
  body: { code, message, ...(errors ? { errors: { _errors: errors.map((e) => ({ code: 'BASE_TYPE_INVALID', message: e })) } } : {}) },
});
