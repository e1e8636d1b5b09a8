import QRCode from 'qrcode';

/** A link as a QR code: an SVG data URL, which the CSP's img-src allows (WalletConnect's pairing, TON Connect's universal link). */
export const qrDataUrl = async (text: string): Promise<string> =>
  `data:image/svg+xml;utf8,${encodeURIComponent(await QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }))}`;
