import QRCode from 'qrcode';
import type { Image } from '../../contracts/reply.js';

/**
 * QR codes as PNG images. The text each encodes travels with it (Image.qr), so the terminal chat
 * draws the same code as characters without decoding the PNG.
 */
export async function qrImage(payload: string, alt: string, filename = 'deposit-qr.png'): Promise<Image> {
  const png = new Uint8Array(await QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 360 }));
  return { png, alt, filename, qr: payload };
}

/** The text a QR image encodes (tests read the card's code through it). */
export const qrPayload = (image: Image): string | undefined => image.qr;
