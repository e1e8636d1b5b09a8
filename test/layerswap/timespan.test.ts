import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/i18n/index.js';
import { parseTimeSpan } from '../../src/layerswap/timespan.js';

describe('parseTimeSpan', () => {
  it.each([
    ['00:00:05.4528534', 5453],
    ['00:00:47.5186220', 47_519],
    ['00:02:00', 120_000],
    ['01:00:00', 3_600_000],
    ['1.02:03:04', ((26 * 60 + 3) * 60 + 4) * 1000],
    ['2.00:00:00.5', 2 * 86_400_000 + 500],
    ['36:00:00', 36 * 3_600_000],
    [' 00:00:30 ', 30_000],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseTimeSpan(text)).toBe(ms);
  });

  it.each(['', '5', '00:05', 'PT5S', '00:60:00', '00:00:61', '1.24:00:00', '-00:00:05', '00:00:05.', 'abc:de:fg', null, undefined])(
    'gives undefined for %j',
    (text) => {
      expect(parseTimeSpan(text)).toBeUndefined();
    },
  );
});

describe('formatDuration, an estimate (about)', () => {
  it.each([
    [0, 'less than a second'],
    [1_000, 'about 1 second'],
    [5_452, 'about 5 seconds'],
    [30_000, 'about 30 seconds'],
    [47_519, 'about 50 seconds'],
    [58_000, 'about 1 minute'],
    [120_000, 'about 2 minutes'],
    [100_000, 'about 2 minutes'],
    [59 * 60_000 + 40_000, 'about 1 hour'],
    [3_600_000, 'about 1 hour'],
    [5 * 3_600_000, 'about 5 hours'],
    [26 * 3_600_000, 'about 1 day'],
    [3 * 86_400_000, 'about 3 days'],
    [-1, 'an unknown time'],
    [Number.NaN, 'an unknown time'],
  ])('describes %d ms as %j', (ms, words) => {
    expect(formatDuration('en', ms, { about: true })).toBe(words);
  });

  it('reads a quote completion time the way a user would', () => {
    expect(formatDuration('en', parseTimeSpan('00:02:00') ?? Number.NaN, { about: true })).toBe('about 2 minutes');
  });
});
