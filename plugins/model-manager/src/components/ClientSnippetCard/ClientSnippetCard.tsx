import {
  CodeSnippet,
  InfoCard,
  Progress,
  WarningPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef, type ModelStatus } from '../../api';
import { clientExample, curlExample } from '../ServingContent/clientExample';

export interface ClientSnippetCardProps {
  /** The model's name in models.yaml. */
  model: string;
  /** The `model` clients send (the served model name the gateway routes on). */
  servedName: string;
  category: string;
}

function Snippets({
  item,
  ...props
}: ClientSnippetCardProps & { item: ModelStatus }) {
  const where = `${item.cluster}/${item.namespace}`;
  const endpoint = item.endpoint;
  if (!endpoint?.baseUrl) {
    return (
      <div data-testid={`endpoint-${item.cluster}-${item.namespace}`}>
        <Typography variant="subtitle2">{where}</Typography>
        <Typography variant="body2">
          {endpoint?.message ??
            (item.error
              ? `The status could not be read: ${item.error}`
              : 'Not deployed yet.')}
        </Typography>
      </div>
    );
  }
  const options = { ...props, baseUrl: endpoint.baseUrl };
  return (
    <div data-testid={`endpoint-${item.cluster}-${item.namespace}`}>
      <Typography variant="subtitle2">
        {where}: <code>{endpoint.baseUrl}</code>
      </Typography>
      <Typography variant="caption" component="p">
        {endpoint.message} Send <code>"model": "{props.servedName}"</code>.
      </Typography>
      <Typography variant="overline" component="p">
        curl
      </Typography>
      <CodeSnippet
        language="bash"
        text={curlExample(options)}
        showCopyCodeButton
      />
      <Typography variant="overline" component="p">
        Python (OpenAI SDK)
      </Typography>
      <CodeSnippet
        language="python"
        text={clientExample(options)}
        showCopyCodeButton
      />
    </div>
  );
}

/**
 * "Call it": curl and OpenAI SDK calls against the model's real endpoint wherever it is deployed
 * (the URL KServe reports, else the cluster's gateway), or why there is none yet.
 */
export function ClientSnippetCard(props: ClientSnippetCardProps) {
  const api = useApi(modelManagerApiRef);
  const { value, loading, error } = useAsync(
    () => api.status(props.model),
    [api, props.model],
  );
  return (
    <InfoCard
      title="Call it"
      subheader="OpenAI-compatible; clients always use /v1/ on the gateway"
    >
      {loading && <Progress />}
      {error && (
        <WarningPanel
          severity="warning"
          title="Could not read where the model is deployed"
        >
          {error.message}
        </WarningPanel>
      )}
      {value && value.length === 0 && (
        <Typography data-testid="endpoint-not-deployed">
          Not deployed yet: deploy the model, and its endpoint and how to call
          it show here.
        </Typography>
      )}
      {value?.map(item => (
        <Snippets
          key={`${item.cluster}/${item.namespace}`}
          item={item}
          {...props}
        />
      ))}
    </InfoCard>
  );
}
