import {
  MODEL_SORT_FIELDS,
  type ModelListQuery,
  type ModelSort,
} from '@model-manager/plugin-model-manager-common';

/** The exact-match filters of the Models page, as named in the URL and in `GET /models`. */
export const MODEL_FILTERS = [
  'runtime',
  'version',
  'category',
  'owner',
] as const;
export type ModelFilter = (typeof MODEL_FILTERS)[number];

export const PAGE_SIZES = [20, 50, 100];

const SORTS: readonly string[] = MODEL_SORT_FIELDS.flatMap(f => [f, `-${f}`]);

/** What the Models page shows: all of it lives in the URL query, so a link shares the view. */
export type ModelsView = {
  filters: Partial<Record<ModelFilter, string>>;
  q: string;
  sort: ModelSort;
  /** 0-based here; 1-based in the URL (`page=2` is the second page). */
  page: number;
  pageSize: number;
};

/** The view of a URL query; a value that makes no sense falls back to its default. */
export function viewFromSearch(search: URLSearchParams): ModelsView {
  const filters: ModelsView['filters'] = {};
  for (const key of MODEL_FILTERS) {
    const value = search.get(key);
    if (value) filters[key] = value;
  }
  const sort = search.get('sort') ?? '';
  const page = Number(search.get('page'));
  const pageSize = Number(search.get('pageSize'));
  return {
    filters,
    q: search.get('q') ?? '',
    sort: (SORTS.includes(sort) ? sort : 'name') as ModelSort,
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    pageSize: PAGE_SIZES.includes(pageSize) ? pageSize : PAGE_SIZES[0],
  };
}

/** The URL query of a view, defaults left out. */
export function searchOf(view: ModelsView): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of MODEL_FILTERS) {
    const value = view.filters[key];
    if (value) search.set(key, value);
  }
  if (view.q) search.set('q', view.q);
  if (view.sort !== 'name') search.set('sort', view.sort);
  if (view.page > 0) search.set('page', String(view.page + 1));
  if (view.pageSize !== PAGE_SIZES[0])
    search.set('pageSize', String(view.pageSize));
  return search;
}

/** The `GET /models` query of a view: one page. */
export function queryOf(view: ModelsView): ModelListQuery {
  return {
    ...view.filters,
    ...(view.q.trim() ? { q: view.q.trim() } : {}),
    sort: view.sort,
    limit: view.pageSize,
    offset: view.page * view.pageSize,
  };
}
