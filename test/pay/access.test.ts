import { describe, expect, it } from 'vitest';
import { checkInitData, signLink, verifyLink } from '../../src/pay/access.js';
import { signInitData } from './support.js';

const TOKEN = '123456:TEST-token-for-the-pay-page-abcdef';
const NOW = Date.UTC(2026, 10, 28, 12);
const SECRET = 'a-server-secret-of-at-least-32-characters!';

describe('who may open the pay page', () => {
  it('takes initData signed with the bot token, and names its user', () => {
    const data = signInitData(TOKEN, { user: { id: 4242, language_code: 'ru' }, authDate: NOW / 1000 - 60 });
    expect(checkInitData(data, TOKEN, 3600, NOW)).toEqual({ ok: true, value: { id: '4242', languageCode: 'ru' } });
  });

  it('refuses initData from another bot, tampered, stale or without a hash', () => {
    const data = signInitData(TOKEN, { user: { id: 4242 }, authDate: NOW / 1000 - 60 });
    expect(checkInitData(data, '999:ANOTHER-bot-token-abcdefghijkl', 3600, NOW)).toEqual({ ok: false, why: 'bad_signature' });
    const tampered = data.replace('4242', '4243');
    expect(checkInitData(tampered, TOKEN, 3600, NOW)).toEqual({ ok: false, why: 'bad_signature' });
    const stale = signInitData(TOKEN, { user: { id: 4242 }, authDate: NOW / 1000 - 3601 });
    expect(checkInitData(stale, TOKEN, 3600, NOW)).toEqual({ ok: false, why: 'expired' });
    expect(checkInitData('user=%7B%22id%22%3A1%7D', TOKEN, 3600, NOW)).toEqual({ ok: false, why: 'malformed' });
  });

  it('takes its own signed link until it expires; a changed or foreign link is refused', () => {
    const link = signLink({ platform: 'discord', userId: 'u1', swapId: 's1', exp: NOW / 1000 + 60 }, SECRET);
    const ok = verifyLink(link, SECRET, NOW);
    expect(ok.ok && ok.value).toMatchObject({ platform: 'discord', userId: 'u1', swapId: 's1' });
    expect(verifyLink(link, SECRET, NOW + 61_000)).toEqual({ ok: false, why: 'expired' });
    expect(verifyLink(link, `${SECRET}x`, NOW)).toEqual({ ok: false, why: 'bad_signature' });
    const [body, sig] = link.split('.');
    const other = Buffer.from(JSON.stringify(['discord', 'u2', 's1', NOW / 1000 + 60, 'n'])).toString('base64url');
    expect(verifyLink(`${other}.${sig}`, SECRET, NOW)).toEqual({ ok: false, why: 'bad_signature' });
    expect(verifyLink(`${body}`, SECRET, NOW)).toEqual({ ok: false, why: 'malformed' });
  });
});
