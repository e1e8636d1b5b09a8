import QRCode from 'qrcode';
import type { Image } from '../../contracts/reply.js';

/**
 * QR codes as PNG images. The text each PNG encodes is remembered (weakly, per image) so the
 * terminal chat can draw the same code as characters without decoding the PNG.
 */
const sources = new WeakMap<Uint8Array, string>();

export async function qrImage(payload: string, alt: string, filename = 'deposit-qr.png'): Promise<Image> {
  const png = new Uint8Array(await QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 360 }));
  sources.set(png, payload);
  return { png, alt, filename };
}

/** The text a QR image made by qrImage encodes, when it was made in this process. */
export const qrPayload = (image: Image): string | undefined => sources.get(image.png);

/** The code drawn with block characters, for terminals. */
export const terminalQr = (payload: string): Promise<string> => QRCode.toString(payload, { type: 'terminal', small: true });
