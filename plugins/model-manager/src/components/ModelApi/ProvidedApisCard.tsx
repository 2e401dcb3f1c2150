import {
  InfoCard,
  Link,
  Progress,
  WarningPanel,
} from '@backstage/core-components';
import type { Entity } from '@backstage/catalog-model';
import { useRouteRef } from '@backstage/core-plugin-api';
import {
  EntityRefLink,
  entityRouteParams,
  entityRouteRef,
} from '@backstage/plugin-catalog-react';
import List from '@material-ui/core/List';
import ListItem from '@material-ui/core/ListItem';
import ListItemText from '@material-ui/core/ListItemText';
import Typography from '@material-ui/core/Typography';
import { useProvidedApis } from './useProvidedApis';

/**
 * Where an API entity's definition is shown: its page's Definition tab (Backstage's api-docs
 * plugin renders an OpenAPI definition there with Swagger UI, on both frontend systems:
 * create-app's EntityPage and api-docs' `entity-content:api-docs/definition`).
 */
function useDefinitionLink(): (api: Entity) => string {
  const entityRoute = useRouteRef(entityRouteRef);
  return api => `${entityRoute(entityRouteParams(api))}/definition`;
}

/**
 * "Provides APIs" on a model's Overview: each API entity of the model (the OpenAI-compatible API
 * the catalog module emits) with a link to it and to its definition.
 */
export function ProvidedApisCard() {
  const { refs, apis, loading, error } = useProvidedApis();
  const definitionOf = useDefinitionLink();
  if (refs.length === 0) return null;
  return (
    <InfoCard
      title="Provides APIs"
      deepLink={
        apis && apis.length > 0
          ? { title: 'API definition', link: definitionOf(apis[0]) }
          : undefined
      }
    >
      {loading && <Progress />}
      {error && (
        <WarningPanel
          severity="error"
          title="The API entities could not be read"
          message={error.message}
        />
      )}
      {apis && apis.length === 0 && (
        <Typography variant="body2">
          {refs.join(', ')}: not in the catalog (yet).
        </Typography>
      )}
      <List dense>
        {apis?.map(api => (
          <ListItem key={api.metadata.uid ?? api.metadata.name}>
            <ListItemText
              primary={<EntityRefLink entityRef={api} />}
              secondary={
                <>
                  {api.metadata.description}{' '}
                  <Link to={definitionOf(api)}>Show the definition</Link>
                </>
              }
            />
          </ListItem>
        ))}
      </List>
    </InfoCard>
  );
}
