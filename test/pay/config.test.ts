import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('the pay page in the configuration', () => {
  it('is off unless PAY_PUBLIC_URL is set, and then needs its link secret, which is never echoed', () => {
    expect(loadConfig({}).PAY_PUBLIC_URL).toBeUndefined();
    expect(() => loadConfig({ PAY_PUBLIC_URL: 'https://bot.example.com' })).toThrow(/PAY_LINK_SECRET is missing/);
    const short = (() => {
      try {
        loadConfig({ PAY_PUBLIC_URL: 'https://bot.example.com', PAY_LINK_SECRET: 'too-short-secret' });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(short?.problems).toEqual(['PAY_LINK_SECRET=(hidden): use 32-256 random printable characters without spaces']);
    const ok = loadConfig({ PAY_PUBLIC_URL: 'https://bot.example.com/', PAY_LINK_SECRET: 'x'.repeat(32) });
    expect(ok.PAY_PUBLIC_URL).toBe('https://bot.example.com');
    expect(ok.secretValues).toContain('x'.repeat(32));
  });

  it("WalletConnect's relay is wss://relay.walletconnect.org unless set; anything but a wss:// URL is refused with how to fix it", () => {
    expect(loadConfig({}).WALLETCONNECT_RELAY_URL).toBe('wss://relay.walletconnect.org');
    expect(loadConfig({ WALLETCONNECT_RELAY_URL: 'wss://relay.example.org/' }).WALLETCONNECT_RELAY_URL).toBe('wss://relay.example.org');
    for (const bad of ['ws://relay.example.org', 'https://relay.walletconnect.org', 'wss://relay.example.org/?projectId=x', 'relay']) {
      const problems = (() => {
        try {
          loadConfig({ WALLETCONNECT_RELAY_URL: bad });
        } catch (e) {
          return (e as ConfigError).problems;
        }
      })();
      expect(problems).toEqual([
        `WALLETCONNECT_RELAY_URL="${bad}": must be a wss:// URL without user, query or fragment, such as wss://relay.walletconnect.org`,
      ]);
    }
  });

  it("TON Connect's bridge is Wallet in Telegram's unless set or off; a bridge or wallet link that is not https is refused with how to fix it", () => {
    const byDefault = loadConfig({});
    expect(byDefault.TONCONNECT_BRIDGE_URL).toBe('https://walletbot.me/tonconnect-bridge/bridge');
    expect(byDefault.TONCONNECT_WALLET_LINK).toBe('https://t.me/wallet?attach=wallet');
    expect(byDefault.TONCONNECT_WALLET_NAME).toBe('Wallet in Telegram');
    expect(loadConfig({ TONCONNECT_BRIDGE_URL: 'https://bridge.example.org/bridge/' }).TONCONNECT_BRIDGE_URL).toBe(
      'https://bridge.example.org/bridge',
    );
    expect(loadConfig({ TONCONNECT_BRIDGE_URL: 'off' }).TONCONNECT_BRIDGE_URL).toBe('off');
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    for (const bad of ['http://bridge.example.org/bridge', 'wss://bridge.example.org', 'https://bridge.example.org/bridge?x=1', 'bridge'])
      expect(problemsOf({ TONCONNECT_BRIDGE_URL: bad })).toEqual([
        `TONCONNECT_BRIDGE_URL="${bad}": must be an https:// URL without user, query or fragment, such as https://walletbot.me/tonconnect-bridge/bridge, or off`,
      ]);
    expect(problemsOf({ TONCONNECT_WALLET_LINK: 'tg://resolve?domain=wallet' })).toEqual([
      'TONCONNECT_WALLET_LINK="tg://resolve?domain=wallet": must be the wallet\'s https:// universal link, such as https://t.me/wallet?attach=wallet',
    ]);
  });
});
