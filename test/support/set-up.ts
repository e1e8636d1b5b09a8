import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * What `start` gives, for the tests of one file: started before them and closed after them
 * (`each`: a fresh one for every test). The object is returned at once and filled in once started.
 */
export function setUp<T extends { close(): Promise<void> }>(start: () => Promise<T>, opts: { each?: boolean } = {}): T {
  const holder = {} as T;
  (opts.each ? beforeEach : beforeAll)(async () => {
    Object.assign(holder, await start());
  });
  // Nothing to close when start() failed.
  (opts.each ? afterEach : afterAll)(async () => holder.close?.());
  return holder;
}
