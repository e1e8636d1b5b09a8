import { expect } from 'vitest';
import { DeliveryError } from '../../src/contracts/messenger.js';

/** What a messenger call rejected with, checked to be a DeliveryError (a test of how a platform failure is classified). */
export async function deliveryFailure(p: Promise<unknown>): Promise<DeliveryError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(DeliveryError);
  return e as DeliveryError;
}
