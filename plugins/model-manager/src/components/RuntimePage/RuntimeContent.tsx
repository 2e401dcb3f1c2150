import {
  formatEnvValue,
  isSecretKeyRef,
} from '@model-manager/plugin-model-manager-common';
import {
  InfoCard,
  Link,
  Progress,
  Table,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { useEntity } from '@backstage/plugin-catalog-react';
import Grid from '@material-ui/core/Grid';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef, type RuntimeSummary } from '../../api';
import { flatImageOf } from './flatImage';
import { KeyValueTable } from './KeyValueTable';
import { VersionMatrix } from './VersionMatrix';
import { CARD_TABLE_OPTIONS } from '../cardTableOptions';
import { runtimeNameOf } from '../entityNames';

/** An env value as text: a Secret reference reads `secret <name>/<key>`. */
const envText = (x: unknown) =>
  isSecretKeyRef(x) ? formatEnvValue(x) : String(x);

/** A runtime: versions with images (default marked), common env, categories, plumbing, models. */
export function RuntimeContent() {
  const { entity } = useEntity();
  const api = useApi(modelManagerApiRef);
  const name = runtimeNameOf(entity);
  const { value, loading, error } = useAsync(
    () => api.getRuntime(name),
    [api, name],
  );
  if (loading) return <Progress />;
  if (error)
    return (
      <WarningPanel severity="error" title={`Could not load runtime ${name}`}>
        {error.message}
      </WarningPanel>
    );
  const runtime = value as RuntimeSummary;
  const flat = flatImageOf(runtime);
  return (
    <Grid container spacing={3}>
      <Grid item xs={12}>
        {runtime.versioned ? (
          <Table
            title="Versions"
            options={CARD_TABLE_OPTIONS}
            columns={[
              {
                title: 'Version',
                field: 'version',
                render: (v: any) =>
                  v.default ? <b>{v.version} (default)</b> : v.version,
              },
              { title: 'Image', field: 'image' },
              {
                title: 'Env delta',
                render: (v: any) =>
                  Object.entries(v.env)
                    .map(([k, x]) => `${k}=${envText(x)}`)
                    .join(', ') || '—',
              },
              {
                title: 'Args delta',
                render: (v: any) => v.args.join(' ') || '—',
              },
            ]}
            data={runtime.versions.map(v => ({ ...v, id: v.version }))}
          />
        ) : (
          <InfoCard title="Image">
            <KeyValueTable
              label="Image"
              empty="No image is set in the runtime's plumbing (each model sets server.image)."
              rows={
                flat
                  ? [{ key: 'image', value: flat.image, note: flat.source }]
                  : []
              }
            />
            <Typography variant="body2" component="p">
              This runtime is flat: every model runs this image (unless it sets
              its own server.image); it has no versions, and a requested server
              version is refused.
            </Typography>
          </InfoCard>
        )}
      </Grid>
      <Grid item xs={12}>
        <VersionMatrix runtime={runtime} />
      </Grid>
      <Grid item xs={12} md={6}>
        <InfoCard title="Common env (every pod)">
          <KeyValueTable
            label="Common env"
            empty="No env common to every pod."
            rows={Object.entries(runtime.env).map(([key, envValue]) => ({
              key,
              value: envValue,
            }))}
          />
        </InfoCard>
      </Grid>
      <Grid item xs={12} md={6}>
        <InfoCard
          title="Plumbing"
          subheader="values.yaml merged in at load time; models.yaml wins on a clash"
        >
          <KeyValueTable
            label="Plumbing"
            empty="No plumbing."
            rows={Object.entries(runtime.plumbing).map(([key, p]) => ({
              key,
              value: p.value,
              note: p.source,
            }))}
          />
        </InfoCard>
      </Grid>
      <Grid item xs={12}>
        <Table
          title="Categories"
          options={CARD_TABLE_OPTIONS}
          columns={[
            { title: 'Category', field: 'name' },
            {
              title: 'Defaults',
              render: (c: any) =>
                Object.entries(c.defaults)
                  .map(([k, x]) => `${k}: ${x}`)
                  .join(', '),
            },
            {
              title: 'Env',
              render: (c: any) =>
                Object.entries(c.env)
                  .map(([k, x]) => `${k}=${envText(x)}`)
                  .join(', ') || '—',
            },
            { title: 'Args', render: (c: any) => c.args.join(' ') || '—' },
          ]}
          data={runtime.categories.map(c => ({ ...c, id: c.name }))}
        />
      </Grid>
      <Grid item xs={12}>
        <InfoCard
          title={`Models on ${runtime.name} (${runtime.models.length})`}
        >
          {runtime.models.map(m => (
            <div key={m}>
              <Link to={`/catalog/default/component/${m}`}>{m}</Link>
            </div>
          ))}
        </InfoCard>
      </Grid>
    </Grid>
  );
}
