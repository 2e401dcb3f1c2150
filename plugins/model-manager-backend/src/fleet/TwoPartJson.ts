import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * The gzip member header (RFC 1952 §2.3): magic, CM 8 (deflate), no flags, no modification time,
 * XFL 0, OS 255 (unknown).
 */
const GZIP_HEADER = Buffer.from([
  0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff,
]);

/**
 * JSON text in two parts: a `head` kept with a fleet build (the items and errors: 13 MB at 10,000
 * targets) and a short `tail` made for each answer (its `readAt`), with the head's compression
 * kept too, so an answer neither joins nor compresses 13 MB again.
 *
 * Its gzip is one member (RFC 1952) whose deflate data is the head's blocks, made once and ending
 * in a sync flush (an empty stored block: byte-aligned, not final), followed by the tail's blocks
 * from a fresh deflate stream, ending final. A deflate stream is a sequence of blocks, and a block
 * that refers to no data before it (a fresh stream's never do) may follow any byte-aligned block
 * (RFC 1951 §3.2.3, §3.2.4); the member's CRC-32 is the head's continued over the tail (zlib's
 * `crc32(data, value)`), and ISIZE the length of both modulo 2^32. Any gzip reader decodes it as
 * the whole text compressed in one go.
 */
export class TwoPartJson {
  private compressedHead?: { deflated: Buffer; crc: number; bytes: number };

  constructor(readonly head: string) {}

  /** The answer's text. */
  text(tail: string): string {
    return this.head + tail;
  }

  /** The answer gzip-encoded; the head is compressed on the first call only. */
  gzip(tail: string): Buffer {
    this.compressedHead ??= {
      deflated: deflateRawSync(this.head, {
        finishFlush: constants.Z_SYNC_FLUSH,
      }),
      crc: crc32(this.head),
      bytes: Buffer.byteLength(this.head),
    };
    const head = this.compressedHead;
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(tail, head.crc), 0);
    trailer.writeUInt32LE((head.bytes + Buffer.byteLength(tail)) % 2 ** 32, 4);
    return Buffer.concat([
      GZIP_HEADER,
      head.deflated,
      deflateRawSync(tail),
      trailer,
    ]);
  }
}
