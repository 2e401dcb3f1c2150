/**
 * @jest-environment node
 */
import { ModelManagerClient } from './ModelManagerClient';

describe('ModelManagerClient.watchFleet', () => {
  it('shares one /fleet/events stream between the readers of a page, and closes it after the last', async () => {
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    const signals: AbortSignal[] = [];
    const fetch = jest.fn(async (_url: string, init?: RequestInit) => {
      signals.push(init!.signal!);
      return new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            stream = c;
          },
        }),
        { headers: { 'Content-Type': 'text/event-stream' } },
      );
    });
    const api = ModelManagerClient.create({
      discoveryApi: {
        getBaseUrl: async () => 'http://backend/api/model-manager',
      },
      fetchApi: { fetch: fetch as unknown as typeof globalThis.fetch },
    });
    const a: string[][] = [];
    const b: string[][] = [];
    const stopA = api.watchFleet(c => a.push(c));
    const stopB = api.watchFleet(c => b.push(c));
    await new Promise<void>(resolve => {
      const check = () => (stream ? resolve() : setImmediate(check));
      check();
    });
    stream!.enqueue(
      new TextEncoder().encode('event: fleet\ndata: {"clusters":["prod"]}\n\n'),
    );
    await new Promise<void>(resolve => {
      const check = () => (b.length ? resolve() : setImmediate(check));
      check();
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0][0]).toBe(
      'http://backend/api/model-manager/fleet/events',
    );
    expect(a).toEqual([['prod']]);
    expect(b).toEqual([['prod']]);
    stopA();
    expect(signals[0].aborted).toBe(false);
    stopB();
    expect(signals[0].aborted).toBe(true);
  });
});
