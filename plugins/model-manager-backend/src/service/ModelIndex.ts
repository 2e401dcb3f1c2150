import { createHash } from 'node:crypto';
import {
  type Catalog,
  type ModelFacets,
  type ModelListQuery,
  type ModelListResponse,
  type ModelSortField,
  type ModelSummary,
} from '@model-manager/plugin-model-manager-common';
import { summarizeModel } from './summaries';

const sha1 = (text: string) =>
  createHash('sha1').update(text).digest('base64url');

/** Numeric-aware (0.9.0 before 0.19.1), the same order on every machine. */
const collator = new Intl.Collator('en', { numeric: true });

const distinct = (values: Array<string | undefined>) =>
  [...new Set(values.filter((v): v is string => v !== undefined))].sort(
    collator.compare,
  );

/** The query's settings in a fixed order: two equal queries give the same key, whatever their order. */
const FILTERS = ['runtime', 'version', 'category', 'owner'] as const;

/**
 * The model summaries of one catalog, computed once per catalog object (a reload makes a new
 * catalog, hence a new index): what `GET /models` filters, sorts and pages, and the tag its ETag is
 * made of (a hash of the summaries served, so a reload with the same content keeps it).
 */
export class ModelIndex {
  private static readonly cache = new WeakMap<Catalog, ModelIndex>();

  /** Sorted orders, built the first time a sort is asked for. */
  private readonly orders = new Map<ModelSortField, ModelSummary[]>();
  private fullBody?: string;

  private constructor(
    private readonly summaries: ModelSummary[],
    /** Lower-cased name, model_id, display_name, description and tags, for `q`. */
    private readonly searchText: Map<ModelSummary, string>,
    readonly facets: ModelFacets,
    /** A hash of every summary: changes when what the API serves changes. */
    readonly catalogTag: string,
  ) {}

  /** The index of a catalog, built on the first call for that catalog object. */
  static of(catalog: Catalog): ModelIndex {
    let index = ModelIndex.cache.get(catalog);
    if (!index) {
      index = ModelIndex.build(catalog);
      ModelIndex.cache.set(catalog, index);
    }
    return index;
  }

  private static build(catalog: Catalog): ModelIndex {
    const summaries = Object.keys(catalog.models).map(name =>
      summarizeModel(catalog, name),
    );
    const searchText = new Map(
      summaries.map(m => [
        m,
        [m.name, m.modelId, m.displayName ?? '', m.description ?? '', ...m.tags]
          .join('\n')
          .toLowerCase(),
      ]),
    );
    const facets: ModelFacets = {
      runtimes: distinct(summaries.map(m => m.runtime)),
      versions: distinct(summaries.map(m => m.version)),
      categories: distinct(summaries.map(m => m.category)),
      owners: distinct(summaries.map(m => m.owner)),
    };
    return new ModelIndex(
      summaries,
      searchText,
      facets,
      sha1(JSON.stringify(summaries)).slice(0, 16),
    );
  }

  /** A strong ETag for the answer to `query` from this catalog. */
  etag(query: ModelListQuery): string {
    const key = [...FILTERS, 'q', 'sort', 'limit', 'offset']
      .map(k => `${k}=${query[k as keyof ModelListQuery] ?? ''}`)
      .join('&');
    return `"${this.catalogTag}-${sha1(key).slice(0, 12)}"`;
  }

  /** The matching models, sorted, and the page asked for. */
  query(query: ModelListQuery): ModelListResponse {
    const sort = query.sort ?? 'name';
    const descending = sort.startsWith('-');
    let rows = this.sorted(
      (descending ? sort.slice(1) : sort) as ModelSortField,
    );
    const q = query.q?.trim().toLowerCase();
    const filters = FILTERS.filter(f => query[f] !== undefined);
    if (filters.length > 0 || q) {
      rows = rows.filter(
        m =>
          filters.every(f => m[f] === query[f]) &&
          (!q || this.searchText.get(m)!.includes(q)),
      );
    }
    if (descending) rows = [...rows].reverse();
    const offset = query.offset ?? 0;
    const items =
      query.limit === undefined
        ? rows.slice(offset)
        : rows.slice(offset, offset + query.limit);
    return {
      items,
      total: rows.length,
      offset,
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
      facets: this.facets,
    };
  }

  /** The JSON of the whole unfiltered list, serialized once (what the CLI and the scaffolder read). */
  fullListJson(): string {
    this.fullBody ??= JSON.stringify(this.query({}));
    return this.fullBody;
  }

  private sorted(field: ModelSortField): ModelSummary[] {
    let order = this.orders.get(field);
    if (!order) {
      const key = (m: ModelSummary) => m[field] ?? '';
      order = [...this.summaries].sort(
        (a, b) =>
          collator.compare(key(a), key(b)) || collator.compare(a.name, b.name),
      );
      this.orders.set(field, order);
    }
    return order;
  }
}
