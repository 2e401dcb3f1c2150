import * as zlib from 'node:zlib';
import { TwoPartJson } from './TwoPartJson';

/** What a browser does with `Content-Encoding: gzip` (the Compression Streams standard). */
async function webGunzip(body: Buffer): Promise<string> {
  const stream = new Blob([body])
    .stream()
    .pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).text();
}

describe('TwoPartJson', () => {
  // Larger than deflate's 32 KiB window and several blocks long, with multi-byte characters.
  const items = Array.from({ length: 3000 }, (_, i) => ({
    model: `model-${i}`,
    cluster: i % 2 ? 'east' : 'ouest-é',
    reason: i % 7 ? undefined : `pull of “vllm/vllm-openai:v0.${i}” failed 🚫`,
  }));
  const head = `{"items":${JSON.stringify(items)},"errors":[],"readAt":`;
  const tail = (at: string) => `${JSON.stringify(at)}}`;

  it('gzips to the same text, for any tail, as Node and the web decoders read it', async () => {
    const answer = new TwoPartJson(head);
    for (const at of ['2026-12-02T21:00:00.000Z', 'après 🚀']) {
      const body = answer.gzip(tail(at));
      expect(zlib.gunzipSync(body).toString()).toBe(answer.text(tail(at)));
      expect(await webGunzip(body)).toBe(head + tail(at));
      expect(JSON.parse(zlib.gunzipSync(body).toString()).readAt).toBe(at);
      // One member: its trailer is the CRC-32 and length of the whole text.
      const whole = Buffer.from(head + tail(at));
      expect(body.readUInt32LE(body.length - 8)).toBe(zlib.crc32(whole));
      expect(body.readUInt32LE(body.length - 4)).toBe(whole.length);
    }
  });

  it('keeps the head compressed: answers differ only after its blocks', () => {
    const answer = new TwoPartJson(head);
    const [a, b] = [answer.gzip(tail('a')), answer.gzip(tail('later'))];
    const shared = a.findIndex((byte, i) => byte !== b[i]);
    // The head's blocks are most of the answer, the same bytes in both.
    expect(shared).toBeGreaterThan(a.length - 40);
    expect(a.subarray(0, shared).equals(b.subarray(0, shared))).toBe(true);
  });

  it('compresses an empty head', () => {
    const answer = new TwoPartJson('');
    expect(zlib.gunzipSync(answer.gzip('{}')).toString()).toBe('{}');
  });
});
