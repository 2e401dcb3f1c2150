import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import {
  CatalogError,
  formatProblem,
  type Catalog,
  type CatalogProblem,
} from '@model-manager/plugin-model-manager-common';
import { loadCatalog } from './loadCatalog';
import type { CatalogLocation } from './types';

/** The subset of Backstage's LoggerService the store needs. */
export interface StoreLogger {
  info(message: string, meta?: object): void;
  warn(message: string, meta?: object): void;
  error(message: string, meta?: object): void;
}

/** The outcome of the latest load attempt. */
export interface CatalogLoadStatus {
  ok: boolean;
  at: Date;
  /** Set when the latest attempt failed; the last good catalog is still served. */
  problems?: CatalogProblem[];
  message?: string;
}

/**
 * Holds the last good catalog. Reloads when models.yaml or runtimes/ change; a reload that fails
 * validation keeps serving the last good catalog and logs every problem with file:line:col, so a
 * broken edit never empties what users see.
 */
export class ModelCatalogStore {
  private catalog: Catalog | undefined;
  private status: CatalogLoadStatus = {
    ok: false,
    at: new Date(0),
    message: 'not loaded yet',
  };
  private readonly listeners = new Set<(catalog: Catalog) => void>();
  private watchers: FSWatcher[] = [];
  private debounce: NodeJS.Timeout | undefined;
  private loading: Promise<CatalogLoadStatus> | undefined;
  private reloadAgain = false;

  private constructor(
    private readonly location: CatalogLocation,
    private readonly logger: StoreLogger,
  ) {}

  /** Loads once (a failure is logged, not thrown) and, with `watch`, follows file changes. */
  static async create(options: {
    location: CatalogLocation;
    logger: StoreLogger;
    watch?: boolean;
  }): Promise<ModelCatalogStore> {
    const store = new ModelCatalogStore(options.location, options.logger);
    await store.reload();
    if (options.watch) store.startWatching();
    return store;
  }

  /** The last good catalog, or undefined when none has ever loaded. */
  current(): Catalog | undefined {
    return this.catalog;
  }

  loadStatus(): CatalogLoadStatus {
    return this.status;
  }

  /** Calls `listener` after every successful (re)load. Returns an unsubscribe function. */
  subscribe(listener: (catalog: Catalog) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reloads now. Concurrent calls are coalesced; the result is the status after loading. */
  async reload(): Promise<CatalogLoadStatus> {
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.loading = this.doReload();
    try {
      let status = await this.loading;
      while (this.reloadAgain) {
        this.reloadAgain = false;
        this.loading = this.doReload();
        status = await this.loading;
      }
      return status;
    } finally {
      this.loading = undefined;
    }
  }

  private async doReload(): Promise<CatalogLoadStatus> {
    try {
      const catalog = await loadCatalog(this.location);
      this.catalog = catalog;
      this.status = { ok: true, at: new Date() };
      for (const warning of catalog.warnings) this.logger.warn(warning);
      this.logger.info(
        `model-manager: loaded ${
          Object.keys(catalog.models).length
        } models and ${Object.keys(catalog.runtimes).length} runtimes from ${
          this.location.modelsFile
        }`,
      );
      for (const listener of this.listeners) {
        try {
          listener(catalog);
        } catch (e) {
          this.logger.error(
            `model-manager: catalog listener failed: ${(e as Error).message}`,
          );
        }
      }
    } catch (e) {
      const problems = e instanceof CatalogError ? e.problems : undefined;
      const message = problems
        ? problems.map(formatProblem).join('\n')
        : String((e as Error).message ?? e);
      this.status = { ok: false, at: new Date(), problems, message };
      this.logger.error(
        `model-manager: ${
          this.catalog ? 'kept the last good catalog; ' : ''
        }the catalog files are invalid:\n${message}`,
      );
    }
    return this.status;
  }

  private startWatching() {
    const modelsFile = path.resolve(this.location.modelsFile);
    const runtimesDir = path.resolve(
      this.location.runtimesDir ??
        path.join(path.dirname(modelsFile), 'runtimes'),
    );
    const onChange = () => {
      clearTimeout(this.debounce);
      // Editors write files in several steps; settle before reading.
      this.debounce = setTimeout(() => void this.reload(), 150);
    };
    const watchPath = (
      p: string,
      recursive: boolean,
      filter?: (f: string | null) => boolean,
    ) => {
      try {
        const w = watch(
          p,
          { recursive, persistent: false },
          (_event, filename) => {
            if (!filter || filter(filename?.toString() ?? null)) onChange();
          },
        );
        w.on('error', err =>
          this.logger.warn(
            `model-manager: watching ${p} failed: ${err.message}`,
          ),
        );
        this.watchers.push(w);
      } catch (e) {
        this.logger.warn(
          `model-manager: cannot watch ${p}: ${(e as Error).message}`,
        );
      }
    };
    const modelsBase = path.basename(modelsFile);
    watchPath(
      path.dirname(modelsFile),
      false,
      f => f === null || f === modelsBase,
    );
    watchPath(runtimesDir, true);
  }

  /** Stops watching. */
  close() {
    clearTimeout(this.debounce);
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }
}
