import {
  InfoCard,
  Link,
  Progress,
  WarningPanel,
} from '@backstage/core-components';
import { EntityRefLink } from '@backstage/plugin-catalog-react';
import List from '@material-ui/core/List';
import ListItem from '@material-ui/core/ListItem';
import ListItemText from '@material-ui/core/ListItemText';
import Typography from '@material-ui/core/Typography';
import { useProvidedApis } from './useProvidedApis';

/**
 * "Provides APIs" on a model's Overview: each API entity of the model (the OpenAI-compatible API
 * the catalog module emits) with a link to it and to the model's API tab.
 */
export function ProvidedApisCard() {
  const { refs, apis, loading, error } = useProvidedApis();
  if (refs.length === 0) return null;
  return (
    <InfoCard
      title="Provides APIs"
      deepLink={{ title: 'API definition', link: 'api' }}
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
              secondary={api.metadata.description}
            />
          </ListItem>
        ))}
      </List>
      {apis && apis.length > 0 && <Link to="api">Show the API definition</Link>}
    </InfoCard>
  );
}
