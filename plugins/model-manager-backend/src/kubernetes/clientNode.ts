import type * as ClientNode from '@kubernetes/client-node';

let loaded: typeof ClientNode | undefined;

/**
 * `@kubernetes/client-node`, loaded on first use. Loading it costs about 30 MiB of resident memory
 * and 0.6 s (it defines every Kubernetes API model), which a backend that has not deployed yet
 * should not pay at start-up. Backstage's kubernetes-backend loads it lazily as well; once either
 * plugin needs it, both share the one module.
 */
export function clientNode(): typeof ClientNode {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('@kubernetes/client-node') as typeof ClientNode;
  return loaded;
}

/** Whether the module has been loaded (for the start-up memory test). */
export function clientNodeLoaded(): boolean {
  return loaded !== undefined;
}
