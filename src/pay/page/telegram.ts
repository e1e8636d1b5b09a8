/**
 * The Telegram Mini App's launch data without Telegram's script (the page loads no script from
 * another origin): Telegram passes `tgWebAppData` (the signed initData) and `tgWebAppThemeParams`
 * in the URL's fragment; a client that injected window.Telegram.WebApp is read first.
 */
interface WebApp {
  initData?: string;
  colorScheme?: 'light' | 'dark';
  themeParams?: Record<string, string>;
  ready?: () => void;
  expand?: () => void;
  openLink?: (url: string) => void;
  openTelegramLink?: (url: string) => void;
}

export interface Launch {
  initData?: string;
  theme: 'light' | 'dark';
  colors: Record<string, string>;
}

export function telegramLaunch(): Launch {
  const app = (window as unknown as { Telegram?: { WebApp?: WebApp } }).Telegram?.WebApp;
  const hash = new URLSearchParams(location.hash.slice(1));
  const initData = app?.initData || hash.get('tgWebAppData') || undefined;
  let colors: Record<string, string> = app?.themeParams ?? {};
  if (!app?.themeParams) {
    try {
      colors = JSON.parse(hash.get('tgWebAppThemeParams') ?? '{}') as Record<string, string>;
    } catch {
      colors = {};
    }
  }
  const dark = app?.colorScheme ? app.colorScheme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  app?.ready?.();
  app?.expand?.();
  return { ...(initData ? { initData } : {}), theme: dark ? 'dark' : 'light', colors };
}

/** Telegram's theme colours as the page's CSS variables (only colour values are taken). */
export function applyTheme(launch: Launch): void {
  const root = document.documentElement;
  root.dataset.theme = launch.theme;
  const map: Record<string, string> = {
    bg_color: '--tg-bg',
    text_color: '--tg-fg',
    hint_color: '--tg-hint',
    button_color: '--tg-button',
    button_text_color: '--tg-button-fg',
    secondary_bg_color: '--tg-secondary-bg',
  };
  for (const [k, v] of Object.entries(map)) {
    const c = launch.colors[k];
    if (typeof c === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(c)) root.style.setProperty(v, c);
  }
}

/**
 * Opens a wallet's link: a t.me one inside Telegram (openTelegramLink: a wallet that is a Telegram
 * Mini App, such as Wallet in Telegram), another https one through Telegram (openLink hands it to
 * the phone, whose wallet app takes its universal link), any other (wc:, a wallet's own scheme) by
 * navigating to it, which the phone hands to the app that registered the scheme.
 */
export function openWalletLink(link: string): void {
  const app = (window as unknown as { Telegram?: { WebApp?: WebApp } }).Telegram?.WebApp;
  if (/^https:\/\/t\.me\//i.test(link) && app?.openTelegramLink) app.openTelegramLink(link);
  else if (/^https:\/\//i.test(link) && app?.openLink) app.openLink(link);
  else location.href = link;
}
