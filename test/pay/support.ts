import { createHmac } from 'node:crypto';
import type { StoredMessage } from '../e2e/telegram/fake-rules.js';
import type { TgUser } from '../e2e/telegram/world.js';
import { waitFor } from '../support/wait.js';

/** initData as Telegram signs it for a Mini App (core.telegram.org/bots/webapps): the test bot token's key. */
export function signInitData(botToken: string, fields: { user: { id: number; language_code?: string }; authDate: number }): string {
  const params = new URLSearchParams({
    auth_date: String(fields.authDate),
    query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
    user: JSON.stringify({ first_name: 'Test', ...fields.user }),
  });
  const lines = [...params].map(([k, v]) => `${k}=${v}`).sort();
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  params.set('hash', createHmac('sha256', secret).update(lines.join('\n')).digest('hex'));
  return params.toString();
}

export const textOf = (m: StoredMessage): string => m.text ?? m.caption ?? '';
const buttonsOf = (m: StoredMessage) => ((m.markup?.inline_keyboard ?? []) as Array<Array<Record<string, unknown>>>).flat();

/**
 * The private deposit card among the chat's messages after the first `before` (and matching
 * `which`, when given): its swap id and the URL of its Pay from wallet button (a web_app).
 */
export async function payCard(
  u: TgUser,
  before: number,
  which: (m: StoredMessage) => boolean = () => true,
  what = 'the deposit card',
): Promise<{ swapId: string; payUrl: string; card: StoredMessage }> {
  const card = await waitFor(
    () =>
      u
        .messages()
        .slice(before)
        .find((m) => /Swap id/.test(textOf(m)) && which(m)),
    what,
  );
  const swapId = /Swap id: ([0-9a-f-]{36})/.exec(textOf(card))![1]!;
  const pay = buttonsOf(card).find((b) => b.text === 'Pay from wallet') as { web_app?: { url: string } } | undefined;
  return { swapId, payUrl: pay!.web_app!.url, card };
}

/** A message whose keyboard has Pay from wallet. */
export const withPayButton = (m: StoredMessage): boolean => JSON.stringify(m.markup ?? {}).includes('"Pay from wallet"');
