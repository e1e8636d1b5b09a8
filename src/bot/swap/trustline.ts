import { bold, line, link, type Line } from '../../contracts/reply.js';
import type { Network } from '../../layerswap/schemas.js';
import type { Translate } from '../../i18n/index.js';

/**
 * Stellar: an account receives an asset other than XLM only once it has a trustline for it, and
 * Layerswap's trustline checks were still open when Stellar was added (wallet-deposits.md §6). The
 * service may refuse at creation (its words are shown then); before that the confirm card says so
 * and where to check: the account's page on the network's explorer, else the wallet.
 */
export function trustlineLines(t: Translate, network: Network | undefined, tokenSymbol: string | undefined, address: string): Line[] {
  if (!network || (network.type ?? '').toLowerCase() !== 'stellar' || !tokenSymbol || !address) return [];
  const token = network.tokens.find((x) => x.symbol.toUpperCase() === tokenSymbol.toUpperCase());
  // XLM itself (the native token, no contract) needs no trustline.
  const native = network.token?.symbol?.toUpperCase() === tokenSymbol.toUpperCase() || (token !== undefined && !token.contract);
  if (native) return [];
  const template = network.account_explorer_template;
  const page = template && /^https:\/\//.test(template) && template.includes('{0}') ? template.replace('{0}', address) : undefined;
  return [
    line(bold(t('stellar.trustline.note', { token: tokenSymbol }))),
    page ? line(t('stellar.trustline.checkAt'), ' ', link(t('stellar.trustline.page'), page)) : line(t('stellar.trustline.checkWallet')),
  ];
}
