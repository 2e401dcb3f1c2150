import {
  Content,
  Progress,
  Table,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Box from '@material-ui/core/Box';
import TablePagination from '@material-ui/core/TablePagination';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import useAsync from 'react-use/esm/useAsync';
import useDebounce from 'react-use/esm/useDebounce';
import { errorText, modelManagerApiRef, type FleetResponse } from '../../api';
import { usePageTitle } from '../../hooks/usePageTitle';
import { CatalogStatusWarning } from '../CatalogStatusWarning';
import { aggregateFleet } from '../fleet';
import { modelsPageColumns, type Row } from './columns';
import { ModelsFilters } from './ModelsFilters';
import {
  PAGE_SIZES,
  queryOf,
  searchOf,
  viewFromSearch,
  type ModelsView,
} from './modelsView';

/** How long the search box waits after the last key before it asks the backend. */
const SEARCH_DEBOUNCE_MS = 300;

function FleetWarnings(props: { error?: Error; fleet?: FleetResponse }) {
  const { error, fleet } = props;
  if (error) {
    return (
      <WarningPanel
        severity="warning"
        title="Could not read where the models are deployed"
      >
        {errorText(error)}
      </WarningPanel>
    );
  }
  if (!fleet || fleet.errors.length === 0) return null;
  return (
    <WarningPanel
      severity="warning"
      title={`Could not read ${fleet.errors
        .map(e => e.cluster)
        .join(', ')}: deployments there show Unknown`}
    >
      {fleet.errors.map(e => `${e.cluster}: ${e.message}`).join('; ')}
    </WarningPanel>
  );
}

/**
 * The models of models.yaml, one page at a time: the backend filters, sorts and pages them; the
 * view (filters, search, sort, page) is the page's URL query, so a link shares it. Each model shows
 * where and how it runs, from one `GET /fleet`.
 */
export function ModelsPage() {
  const api = useApi(modelManagerApiRef);
  usePageTitle('Models');
  const [search, setSearch] = useSearchParams();
  const view = viewFromSearch(search);
  const query = queryOf(view);
  const queryKey = JSON.stringify(query);
  const models = useAsync(() => api.queryModels(query), [api, queryKey]);
  // Separate from the models: the page still lists them when the clusters cannot be read.
  const fleet = useAsync(() => api.fleet(), [api]);
  const byModel = fleet.value ? aggregateFleet(fleet.value.items) : undefined;

  /** A change of filter, search or sort goes back to the first page. */
  const setView = (change: Partial<ModelsView>, replace = false) =>
    setSearch(searchOf({ ...view, page: 0, ...change }), { replace });

  const [text, setText] = useState(view.q);
  // The search this page last put into the URL. When the URL reaches it, the box keeps what was
  // typed since: the commit of "model-099" landing after the next "9" was typed must not take the
  // "9" back (it did, on a busy machine). Any other change of the URL (back, a link) shows.
  const committed = useRef(view.q);
  useEffect(() => {
    if (view.q === committed.current) return;
    committed.current = view.q;
    setText(view.q);
  }, [view.q]);
  useDebounce(
    () => {
      if (text === view.q) return;
      committed.current = text;
      setView({ q: text }, true);
    },
    SEARCH_DEBOUNCE_MS,
    [text],
  );

  const page = models.value;
  // Each row has an id (the model's name): material-table warns about rows without one.
  const rows: Row[] | undefined = page?.items.map(m => ({
    ...m,
    id: m.name,
    fleet: byModel?.get(m.name),
  }));
  const filtered = Object.keys(view.filters).length > 0 || !!view.q;
  return (
    <Content>
      <CatalogStatusWarning />
      {models.loading && !page && <Progress />}
      {models.error && (
        <WarningPanel severity="error" title="Could not load the models">
          {models.error.message}. Check that the model-manager backend is
          running and that models.yaml is valid.
        </WarningPanel>
      )}
      <FleetWarnings error={fleet.error} fleet={fleet.value} />
      {page && rows && (
        <>
          <ModelsFilters
            view={view}
            text={text}
            onText={setText}
            facets={page.facets}
            onFilter={(key, value) =>
              setView({
                filters: { ...view.filters, [key]: value || undefined },
              })
            }
            onSort={sort => setView({ sort })}
            onClear={() => {
              setText('');
              setView({ filters: {}, q: '' });
            }}
          />
          <Table<Row>
            title={`Models (${page.total})`}
            isLoading={models.loading}
            options={{
              // No drag handles on the headers (axe: nested-interactive, a tab stop each).
              draggable: false,
              search: false,
              paging: false,
              sorting: false,
              filtering: false,
            }}
            columns={modelsPageColumns(!!byModel)}
            data={rows}
            emptyContent={
              <Box padding={2}>
                {page.total > 0
                  ? 'No models on this page: go back to the first page.'
                  : filtered
                  ? 'No model matches these filters.'
                  : 'No models in models.yaml yet.'}
              </Box>
            }
          />
          {(page.total > PAGE_SIZES[0] || view.page > 0) && (
            <TablePagination
              component="div"
              count={page.total}
              page={Math.min(
                view.page,
                Math.max(0, Math.ceil(page.total / view.pageSize) - 1),
              )}
              rowsPerPage={view.pageSize}
              rowsPerPageOptions={PAGE_SIZES}
              onPageChange={(_e, p) => setView({ ...view, page: p })}
              onRowsPerPageChange={e =>
                setView({ pageSize: Number(e.target.value) })
              }
            />
          )}
        </>
      )}
    </Content>
  );
}
