import { crc32, deflateSync } from 'node:zlib';

/**
 * A plain light-grey square (PNG): what a photo message shows once its picture no longer applies
 * (the deposit card's QR after the deposit): Telegram cannot turn a photo message into text, and
 * a new message would be a second deposit card. Made once, in memory.
 */
let cached: Uint8Array | undefined;

export function plainPicture(): Uint8Array {
  if (cached) return cached;
  const side = 64;
  // Greyscale, 8 bits: each row is a filter byte (0) and `side` pixels.
  const raw = Buffer.alloc((side + 1) * side, 0xee);
  for (let y = 0; y < side; y++) raw[y * (side + 1)] = 0;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  cached = new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
  return cached;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
