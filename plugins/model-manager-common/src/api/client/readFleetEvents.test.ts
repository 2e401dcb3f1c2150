/**
 * @jest-environment node
 */
import { readFleetEvents } from './readFleetEvents';

/** A response whose body streams the given chunks, then ends (or stays open). */
function streamed(chunks: string[], end = true): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      if (end) controller.close();
    },
  });
  return new Response(body, {
    headers: { 'Content-Type': 'text/event-stream' },
  });
}

describe('readFleetEvents', () => {
  it('calls back once per fleet event, across chunk boundaries, skipping comments', async () => {
    const seen: string[][] = [];
    let resolveTwo: () => void = () => undefined;
    const two = new Promise<void>(resolve => {
      resolveTwo = resolve;
    });
    const stop = readFleetEvents({
      open: async () =>
        streamed(
          [
            'retry: 5000\n\n: keep-alive\n\nevent: fleet\ndata: {"clus',
            'ters":["east"]}\n\nevent: fleet\ndata: {"clusters":["west","east"]}\n\n',
          ],
          false,
        ),
      onChange: clusters => {
        seen.push(clusters);
        if (seen.length === 2) resolveTwo();
      },
    });
    await two;
    stop();
    expect(seen).toEqual([['east'], ['west', 'east']]);
  });

  it('reconnects after the stream ends, and stops for good on 404 (no watch cache)', async () => {
    const answers = [
      streamed(['event: fleet\ndata: {"clusters":["a"]}\n\n']),
      new Response('not found', { status: 404 }),
    ];
    const opened: number[] = [];
    const seen: string[][] = [];
    await new Promise<void>(resolve => {
      readFleetEvents({
        open: async () => {
          opened.push(opened.length);
          const answer = answers.shift()!;
          if (answers.length === 0) setImmediate(resolve);
          return answer;
        },
        onChange: clusters => seen.push(clusters),
        retryMs: 1,
      });
    });
    expect(seen).toEqual([['a']]);
    expect(opened).toEqual([0, 1]);
  });
});
