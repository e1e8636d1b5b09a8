import { describe, expect, it } from 'vitest';
import { CONSOLE_SWAP_SCRIPT, runCli } from '../support/cli.js';
import { testRedisUrl, testRedis, uniquePrefix } from '../support/redis.js';

/**
 * The terminal chat in Russian and Chinese (the built CLI, the in-process sandbox, real Redis):
 * a one-line quote, Swap this, the address questions, refuel, the confirmation and the deposit
 * card, with the amounts, addresses and names as the service gives them; then, over a pipe, the
 * chat follows the swap and the tracking worker's pushed updates arrive in that language too.
 */
/** Key moments the tracking worker pushes as the sandbox swap moves to completion. */
const PUSHED: Record<string, string[]> = {
  ru: ['Депозит обнаружен', 'Обмен завершён'],
  'zh-CN': ['已检测到充值', '兑换已完成'],
};
/** The completion's amount line: the number and names as the service gives them, the words translated. */
const RECEIVED: Record<string, RegExp> = { ru: /Получено \d+(\.\d+)? USDC в сети Base/, 'zh-CN': /已在 Base 上收到 \d+(\.\d+)? USDC/ };

describe('the terminal chat in other languages', () => {
  const prefix = uniquePrefix('console-lang');
  testRedis(prefix);
  const env = { REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, SANDBOX_DEPOSIT_DELAY_MS: '8000', SANDBOX_SPEED: '4' };
  const script = CONSOLE_SWAP_SCRIPT;

  it.each([
    [
      'ru',
      [
        'Котировка: USDC Arbitrum One → USDC Base',
        'Вы отправляете: 100 USDC в сети Arbitrum One',
        '[1] Обменять  [2] Обновить',
        'Отправьте адрес в сети Base, на который придут USDC.',
        'Если пропустить, автоматического возврата не будет:',
        '[#5] Пропустить (без адреса возврата)',
        'Refuel: получить ещё немного ETH в сети Base',
        'Подтвердите обмен',
        'Адрес получения: 0x1111111111111111111111111111111111111111',
        '[10] Подтвердить  [11] Отмена',
        'Отправьте ровно 100 USDC в сети Arbitrum One',
        'Отправляйте только в сети Arbitrum One: средства, отправленные через другую сеть, будут потеряны',
      ],
    ],
    [
      'zh-CN',
      [
        '报价：USDC Arbitrum One → USDC Base',
        '您发送: Arbitrum One 上的 100 USDC',
        '[1] 兑换  [2] 刷新',
        '请发送接收 USDC 的 Base 地址。',
        '如果跳过，将不会自动退款：',
        '[#5] 跳过（不设退款地址）',
        '确认您的兑换',
        '接收地址: 0x1111111111111111111111111111111111111111',
        '[10] 确认  [11] 取消',
        '请仅通过 Arbitrum One 网络发送：通过其他任何网络发送的资金都将丢失',
      ],
    ],
  ])('%s: quote, swap, the deposit card and the pushed updates, in that language', async (lang, expected) => {
    // A prefix per language: the same terminal user, a fresh one (no saved address from the other run).
    const { code, stdout, stderr } = await runCli(['console', '--lang', lang], `${script}\n`, {
      ...env,
      REDIS_PREFIX: `${prefix}-${lang}`,
    });
    expect(stderr).not.toMatch(/error/i);
    expect(code).toBe(0);
    for (const s of expected) expect(stdout).toContain(s);
    // Tracking: pushed after the deposit card (the sandbox deposits by itself), in the same language.
    const pushed = stdout.slice(stdout.indexOf(lang === 'ru' ? 'Отправьте ровно' : '请准确发送'));
    for (const s of PUSHED[lang] ?? []) expect(pushed).toContain(s);
    expect(pushed).toMatch(RECEIVED[lang] ?? /never/);
    for (const s of ['Deposit seen', 'Swap completed', 'Received ']) expect(pushed).not.toContain(s);
    // What this bot says in English in these steps must not leak through.
    for (const s of [
      'Send the address on',
      'Confirm your swap',
      'Skip (no refund address)',
      'Send only over the',
      'You send',
      'Swap this',
      'Deposit for swap',
    ])
      expect(stdout).not.toContain(s);
    expect(stdout).toMatch(/0x[0-9a-fA-F]{40}/); // the deposit address itself, untouched
  });
});
