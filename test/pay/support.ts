import { createHmac } from 'node:crypto';

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
