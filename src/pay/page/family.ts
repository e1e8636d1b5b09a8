/**
 * What the Solana and TON parts of the page share (solana.ts, ton.ts; EVM's is main.ts): the page's
 * own services, and one payment attempt from the Pay button.
 */

export interface FamilyPage {
  /** The swap's network in the wallet protocol's words (solana:mainnet; TON's -239), and its display name. */
  chain: string;
  network: string;
  words: Record<string, string>;
  say(template: string | undefined, vars?: Record<string, string>): string;
  message(text: string, bad?: boolean): void;
  call(action: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }>;
  /** The Pay button's text. */
  payLabel: string;
}

export const $ = (id: string) => document.getElementById(id) as HTMLElement;

export const reasonOf = (err: unknown): string => String((err as { message?: string } | null)?.message ?? err).slice(0, 160);

/** What the wallet did: the hash when the page knows it, and what the server is told (`sent`). */
export interface Sent {
  hash?: string;
  report: Record<string, unknown>;
}

/**
 * One payment at a time: `prepare` on the server (which takes the swap's payment slot and answers
 * what the wallet must send), the wallet sends it, the server is told. A decline or a failure
 * before sending frees the slot, so the person may pay again; once sent, the Pay button is gone
 * whatever happens to the notice (the chat follows the chain).
 */
export function payButton(
  p: FamilyPage,
  wallet: {
    /** The connected account on the swap's network, or undefined (the family says why). */
    source(): string | undefined;
    send(prepared: Record<string, unknown>): Promise<Sent>;
    declined(err: unknown): boolean;
  },
): () => Promise<void> {
  let paying = false;
  return async () => {
    if (paying) return;
    const source = wallet.source();
    if (source === undefined) return;
    paying = true;
    const button = $('pay') as HTMLButtonElement;
    button.disabled = true;
    let prepared = false;
    try {
      const got = await p.call('prepare', { source_address: source });
      if (got.status !== 200) return p.message(String(got.json.message ?? got.json.error ?? got.status), true);
      prepared = true;
      p.message(p.words.confirmInWallet ?? '');
      const sent = await wallet.send(got.json);
      prepared = false;
      button.hidden = true;
      if (sent.hash !== undefined) p.message(p.say(p.words.sent, { hash: sent.hash }));
      const told = await p.call('sent', sent.report).catch(() => undefined);
      if (sent.hash === undefined) p.message(p.say(p.words.sent, { hash: String(told?.json.hash ?? '') }));
    } catch (err) {
      p.message(wallet.declined(err) ? (p.words.rejected ?? '') : p.say(p.words.failed, { reason: reasonOf(err) }), true);
    } finally {
      // Nothing was sent: the swap's payment slot is free again.
      if (prepared) await p.call('release').catch(() => undefined);
      paying = false;
      button.disabled = false;
    }
  };
}
