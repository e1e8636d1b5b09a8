/**
 * Browser wallets as EIP-6963 describes them: the page asks, each injected wallet announces itself
 * with its own EIP-1193 provider (several wallets no longer fight over window.ethereum); a wallet
 * that only sets window.ethereum is the fallback.
 */
export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export interface WalletChoice {
  name: string;
  provider: Eip1193;
}

interface AnnounceDetail {
  info: { uuid: string; name: string; icon?: string; rdns?: string };
  provider: Eip1193;
}

export function discoverWallets(onChange: (wallets: WalletChoice[]) => void): void {
  const found = new Map<string, WalletChoice>();
  window.addEventListener('eip6963:announceProvider', (e: Event) => {
    const detail = (e as CustomEvent<AnnounceDetail>).detail;
    if (!detail?.provider || typeof detail.info?.uuid !== 'string') return;
    found.set(detail.info.uuid, { name: String(detail.info.name || 'Wallet'), provider: detail.provider });
    onChange([...found.values()]);
  });
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  const legacy = (window as unknown as { ethereum?: Eip1193 }).ethereum;
  if (found.size === 0 && legacy) onChange([{ name: 'Browser wallet', provider: legacy }]);
  else onChange([...found.values()]);
}

/** EIP-1193's "user rejected the request". */
export const isRejection = (err: unknown): boolean => {
  const e = err as { code?: number; cause?: { code?: number }; name?: string } | null;
  return e?.code === 4001 || e?.cause?.code === 4001 || e?.name === 'UserRejectedRequestError';
};
