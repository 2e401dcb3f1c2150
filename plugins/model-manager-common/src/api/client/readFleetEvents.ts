/**
 * Reads the Server-Sent Events of `GET /fleet/events` (with the Backstage token: `fetch`, not
 * `EventSource`, which cannot send one) and calls `onChange` for each `fleet` event. Reconnects 5 s
 * after the stream ends or fails, except when the backend has no such endpoint (404: no watch
 * cache); the returned function stops it.
 */
export function readFleetEvents(options: {
  open: (signal: AbortSignal) => Promise<Response>;
  onChange: (clusters: string[]) => void;
  retryMs?: number;
}): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const run = async () => {
    while (!signal.aborted) {
      try {
        const response = await options.open(signal);
        if (response.status === 404) return;
        if (response.ok && response.body) {
          const reader = response.body
            .pipeThrough(new TextDecoderStream())
            .getReader();
          let text = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            text += value;
            for (
              let end = text.indexOf('\n\n');
              end >= 0;
              end = text.indexOf('\n\n')
            ) {
              const block = text.slice(0, end);
              text = text.slice(end + 2);
              const data = /^event: fleet\ndata: (.*)$/m.exec(block);
              if (data) options.onChange(JSON.parse(data[1]).clusters ?? []);
            }
          }
        }
      } catch {
        // The stream failed (backend restarted, network): try again below.
      }
      if (signal.aborted) return;
      await new Promise(resolve =>
        setTimeout(resolve, options.retryMs ?? 5000),
      );
    }
  };
  void run();
  return () => controller.abort();
}
