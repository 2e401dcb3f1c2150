import {
  InfoCard,
  Link,
  Progress,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { useEntity } from '@backstage/plugin-catalog-react';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef } from '../../api';
import { flatImageOf } from './flatImage';
import { KeyValueTable } from './KeyValueTable';
import { runtimeNameOf } from '../entityNames';

/**
 * A runtime's Overview card: its kind, versions (default first), categories, common env and how
 * many models run on it, with a link to the Runtime tab for the rest.
 */
export function RuntimeSummaryCard() {
  const { entity } = useEntity();
  const api = useApi(modelManagerApiRef);
  const name = runtimeNameOf(entity);
  const {
    value: runtime,
    loading,
    error,
  } = useAsync(() => api.getRuntime(name), [api, name]);
  if (loading) return <Progress />;
  if (error || !runtime) {
    return (
      <WarningPanel severity="error" title={`Could not load runtime ${name}`}>
        {error?.message}
      </WarningPanel>
    );
  }
  const versions = runtime.versioned
    ? runtime.versions
        .map(v => (v.default ? `${v.version} (default)` : v.version))
        .join(', ')
    : 'flat (no versions)';
  const flat = flatImageOf(runtime);
  return (
    <InfoCard
      title={`Runtime ${runtime.name}`}
      deepLink={{ title: 'Versions, categories and plumbing', link: 'runtime' }}
    >
      <KeyValueTable
        label="Runtime summary"
        empty=""
        rows={[
          { key: 'kind', value: runtime.kind },
          { key: 'versions', value: versions },
          ...(flat
            ? [{ key: 'image', value: flat.image, note: flat.source }]
            : []),
          {
            key: 'categories',
            value: runtime.categories.map(c => c.name).join(', ') || '—',
          },
          { key: 'models', value: runtime.models.length },
        ]}
      />
      <Typography variant="overline" component="p">
        Common env (every pod)
      </Typography>
      <KeyValueTable
        label="Common env"
        empty="No env common to every pod."
        rows={Object.entries(runtime.env).map(([key, value]) => ({
          key,
          value,
        }))}
      />
      {runtime.models.length > 0 && (
        <p>
          {runtime.models.map((m, i) => (
            <span key={m}>
              {i > 0 && ', '}
              <Link to={`/catalog/default/component/${m}`}>{m}</Link>
            </span>
          ))}
        </p>
      )}
    </InfoCard>
  );
}
