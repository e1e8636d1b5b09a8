import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.js';
import { ed25519PublicKey, signatureValid } from '../../src/platforms/discord/http-endpoint.js';

/** RFC 8032, section 7.1, TEST 1: the empty message. */
const RFC_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

describe('Ed25519 as Discord signs', () => {
  it('takes the public key as the portal shows it (hex) and checks a known signature', () => {
    const key = ed25519PublicKey(RFC_PUBLIC);
    expect(signatureValid(key, RFC_SIGNATURE, '', Buffer.alloc(0))).toBe(true);
    expect(signatureValid(key, RFC_SIGNATURE, '1', Buffer.alloc(0))).toBe(false);
    expect(signatureValid(key, RFC_SIGNATURE.slice(2), '', Buffer.alloc(0))).toBe(false);
    expect(signatureValid(key, 'zz'.repeat(64), '', Buffer.alloc(0))).toBe(false);
  });
});

describe('DISCORD_INTERACTIONS', () => {
  const base = { DISCORD_TOKEN: 'MTEw.some.token', DISCORD_APPLICATION_ID: '1100000000000000001' };
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
      return [];
    } catch (e) {
      if (e instanceof ConfigError) return [...e.problems];
      throw e;
    }
  };

  it('is the gateway unless set', () => {
    expect(loadConfig(base).DISCORD_INTERACTIONS).toBe('gateway');
  });

  it('over HTTP needs the public key, in hex', () => {
    expect(problemsOf({ ...base, DISCORD_INTERACTIONS: 'http' })).toEqual([expect.stringMatching(/^DISCORD_PUBLIC_KEY is missing/)]);
    expect(problemsOf({ ...base, DISCORD_INTERACTIONS: 'http', DISCORD_PUBLIC_KEY: 'xyz' })).toEqual([
      expect.stringMatching(/^DISCORD_PUBLIC_KEY.*64 hex characters/),
    ]);
    const config = loadConfig({ ...base, DISCORD_INTERACTIONS: 'http', DISCORD_PUBLIC_KEY: RFC_PUBLIC });
    expect(config.DISCORD_PUBLIC_KEY).toBe(RFC_PUBLIC);
    expect(problemsOf({ ...base, DISCORD_INTERACTIONS: 'websocket' })).toEqual([expect.stringMatching(/^DISCORD_INTERACTIONS/)]);
  });
});
