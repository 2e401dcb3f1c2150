import { InfoCard, Progress, WarningPanel } from '@backstage/core-components';
import { EntityRefLink } from '@backstage/plugin-catalog-react';
import Grid from '@material-ui/core/Grid';
import Typography from '@material-ui/core/Typography';
import { useProvidedApis } from './useProvidedApis';
import { CodeBlock } from '../CodeBlock';

/** The language of an API definition for highlighting: JSON when it parses as JSON, else YAML. */
function languageOf(definition: string): 'json' | 'yaml' {
  return definition.trimStart().startsWith('{') ? 'json' : 'yaml';
}

/** A JSON definition indented for reading (the catalog module stores it compact); others as they are. */
function readable(definition: string): string {
  if (languageOf(definition) !== 'json') return definition;
  try {
    return JSON.stringify(JSON.parse(definition), null, 2);
  } catch {
    return definition;
  }
}

/** The model's "API" tab: the definition of every API it provides, with a link to each entity. */
export function ApiDefinitionContent() {
  const { refs, apis, loading, error } = useProvidedApis();
  if (loading) return <Progress />;
  if (error) {
    return (
      <WarningPanel
        severity="error"
        title="The API entities could not be read"
        message={error.message}
      />
    );
  }
  if (!apis || apis.length === 0) {
    return (
      <Typography variant="body2">
        {refs.length === 0
          ? 'This model provides no API entity (catalog.providers.modelManager.apiEntities is false).'
          : `${refs.join(', ')}: not in the catalog (yet).`}
      </Typography>
    );
  }
  return (
    <Grid container spacing={3}>
      {apis.map(api => {
        const definition = readable(String(api.spec?.definition ?? ''));
        return (
          <Grid item xs={12} key={api.metadata.uid ?? api.metadata.name}>
            <InfoCard
              title={<EntityRefLink entityRef={api} />}
              subheader={`${api.spec?.type ?? 'API'}: ${
                api.metadata.description ?? ''
              }`}
            >
              <CodeBlock
                language={languageOf(definition)}
                text={definition}
                showCopyCodeButton
              />
            </InfoCard>
          </Grid>
        );
      })}
    </Grid>
  );
}
