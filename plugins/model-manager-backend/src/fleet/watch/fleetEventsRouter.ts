import type { HttpAuthService } from '@backstage/backend-plugin-api';
import {
  modelManagerContract as api,
  type FleetEvent,
} from '@model-manager/plugin-model-manager-common';
import type { Request, Response } from 'express';
import Router from 'express-promise-router';
import type { FleetWatches } from './FleetWatches';

/**
 * `GET /fleet/events`: Server-Sent Events, one `fleet` event (`data: {"clusters":[...]}`) soon
 * after the watch cache sees clusters change (changes within `debounceMs` go as one), so a page
 * asks for `/fleet` again instead of polling. A comment every `heartbeatMs` keeps proxies from
 * closing an idle stream; `retry` tells the browser to reconnect after 5 s. Plain SSE over the
 * plugin's router (not `@backstage/plugin-signals`): it needs no other backend plugin, and a
 * reader with the same credentials as `/fleet` gets it (`fetch` with the Backstage token; an
 * `EventSource` cannot send one).
 */
export function fleetEventsRouter(options: {
  watches: Pick<FleetWatches, 'subscribe'>;
  httpAuth: HttpAuthService;
  debounceMs?: number;
  heartbeatMs?: number;
}) {
  const streams = new Set<() => void>();
  const router = Router();
  router.get(api.fleetEvents.path, async (req: Request, res: Response) => {
    await options.httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: the compression middleware leaves the stream alone (it would buffer it).
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 5000\n\n');
    let changed = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      const data: FleetEvent = { clusters: [...changed] };
      res.write(
        `event: ${api.fleetEvents.events.name}\ndata: ${JSON.stringify(
          data,
        )}\n\n`,
      );
      changed = new Set();
    };
    const unsubscribe = options.watches.subscribe(cluster => {
      changed.add(cluster);
      timer ??= setTimeout(flush, options.debounceMs ?? 100);
    });
    const heartbeat = setInterval(
      () => res.write(': keep-alive\n\n'),
      options.heartbeatMs ?? 25_000,
    );
    const close = () => {
      unsubscribe();
      clearInterval(heartbeat);
      clearTimeout(timer);
      streams.delete(close);
      if (!res.writableEnded) res.end();
    };
    streams.add(close);
    req.on('close', close);
  });
  /** Ends every open stream (plugin shutdown: the server does not wait for them). */
  const closeAll = () => [...streams].forEach(close => close());
  return { router, closeAll };
}
