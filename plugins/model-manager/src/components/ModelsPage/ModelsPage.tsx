import { Content, Link, Progress, Table, WarningPanel, type TableColumn } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef, type ModelSummary } from '../../api';
import { CatalogStatusWarning } from '../CatalogStatusWarning';

const columns: TableColumn<ModelSummary>[] = [
  {
    title: 'Model',
    field: 'name',
    highlight: true,
    render: m => <Link to={`/catalog/default/component/${m.name}`}>{m.displayName ?? m.name}</Link>,
  },
  { title: 'Model ID', field: 'modelId' },
  { title: 'Runtime', field: 'runtime', render: m => <Link to={`/catalog/default/resource/${m.runtime}-runtime`}>{m.runtime}</Link> },
  { title: 'Category', field: 'category' },
  {
    title: 'Version',
    field: 'version',
    render: m => (m.version ? `${m.version}${m.versionSource === 'model' ? ' (pinned)' : ' (default)'}` : '— (flat runtime)'),
  },
  { title: 'Object', field: 'kind' },
  { title: 'Owner', field: 'owner' },
];

/** All models of models.yaml in a searchable, filterable table. */
export function ModelsPage() {
  const api = useApi(modelManagerApiRef);
  const { value, loading, error } = useAsync(() => api.listModels(), [api]);
  return (
    <Content>
      <CatalogStatusWarning />
      {loading && <Progress />}
      {error && (
        <WarningPanel severity="error" title="Could not load the models">
          {error.message}. Check that the model-manager backend is running and that models.yaml is valid.
        </WarningPanel>
      )}
      {value && (
        <Table<ModelSummary>
          title={`Models (${value.length})`}
          options={{ search: true, paging: value.length > 20, pageSize: 20, filtering: true }}
          columns={columns}
          data={value}
          emptyContent={<div style={{ padding: 16 }}>No models in models.yaml yet.</div>}
        />
      )}
    </Content>
  );
}
