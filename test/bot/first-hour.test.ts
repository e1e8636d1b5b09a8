import { describe, expect, test } from 'vitest';
import { resolveNetwork } from '../../src/bot/catalog/parse-network.js';
import { LOCALES, t } from '../../src/i18n/index.js';
import { allText, card, ChatUser, useHarness } from './support/conversation.js';

/**
 * Issue 22 ("The first hour"), item 8: what /routes tells a person to type is what they would
 * type (and the route parser takes it), and the checksum hint never teaches a way around the check.
 */
const h = useHarness();
const SUGGESTION = /Quote one with \/quote <amount> (\S+) (\S+) <to>\./;

describe('/routes suggests words a person types', () => {
  test('the suggested network is a word the parser reads back as that network, never an API name; the suggestion quotes', async () => {
    const u = new ChatUser(h, { userId: 'fh-routes' });
    const text = allText(await u.says('/routes arbitrum usdc'));
    expect(text).toContain('Quote one with /quote <amount> USDC arbitrum <to>.');
    // Typed as suggested, it quotes.
    const [, token, word] = SUGGESTION.exec(text) ?? [];
    card(await u.says(`/quote 100 ${token} ${word} base`), { title: 'Quote: USDC Arbitrum One → USDC Base' });

    const networks = await h.api.getNetworks();
    let suggested = 0;
    for (const n of networks) {
      const m = SUGGESTION.exec(allText(await u.says(`/routes ${n.name}`)));
      if (!m) continue; // no destinations right now
      suggested++;
      const word = m[2] as string;
      expect(word, n.name).not.toMatch(/_(MAINNET|SEPOLIA|TESTNET)$/i);
      const back = resolveNetwork(word, networks);
      expect(back.ok && back.network.name, `${word} for ${n.name}`).toBe(n.name);
    }
    expect(suggested).toBeGreaterThan(5);
  });
});

describe('the address checksum hint', () => {
  test('says to copy the address again from the wallet, never to send it in lower case (all five languages)', async () => {
    const u = new ChatUser(h, { userId: 'fh-checksum' });
    await u.says('/swap 100 USDC arbitrum base');
    // One letter's case changed: the checksum catches it.
    const reply = allText(await u.says('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'.replace('dA6', 'Da6')));
    expect(reply).toContain('do not match its checksum');
    expect(reply).toContain('copy it again from your wallet');
    expect(reply).not.toMatch(/lower case/i);
    const bypass: Record<(typeof LOCALES)[number], RegExp> = {
      en: /lower case/i,
      ru: /строчн/i,
      es: /minúscul/i,
      'zh-CN': /小写/,
      'pt-BR': /minúscul/i,
    };
    for (const l of LOCALES) {
      const hint = t(l, 'problem.address.evmChecksumHint');
      expect(hint, l).not.toMatch(bypass[l]);
      if (l !== 'en') expect(hint, l).not.toBe(t('en', 'problem.address.evmChecksumHint'));
    }
  });
});
