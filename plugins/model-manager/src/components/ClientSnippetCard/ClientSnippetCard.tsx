import { InfoCard, Progress, WarningPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import Typography from '@material-ui/core/Typography';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef, type ModelStatus } from '../../api';
import {
  clientExample,
  curlExample,
  operationOf,
} from '../ServingContent/clientExample';
import { CodeBlock } from '../CodeBlock';

/** Where the snippets read the AI gateway's address when the portal does not know it. */
const GATEWAY_ENV = 'AI_GATEWAY_URL';

export interface ClientSnippetCardProps {
  /** The model's name in models.yaml. */
  model: string;
  /** The `model` clients send (the served model name the gateway routes on). */
  servedName: string;
  category: string;
  /**
   * The OpenAI-compatible operations the category serves on the model's engine (its profile's
   * `api.operations`, from `GET /models/:name/resolved`): the calls shown are of the first.
   */
  operations: readonly string[];
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
  // Routed by the AI gateway, but no gateway URL is configured: the URL known reaches the engine
  // directly (OVMS's /v3). Clients still call the gateway's /v1, whose address the snippets read
  // from the environment; the direct URL is said for debugging inside the cluster.
  const direct = endpoint.bypassesGateway;
  const options = {
    ...props,
    baseUrl: endpoint.baseUrl,
    ...(direct ? { baseUrlFromEnv: GATEWAY_ENV } : {}),
  };
  const base = direct ? `$${GATEWAY_ENV}/v1` : endpoint.baseUrl;
  const operation = operationOf(props.operations);
  const curl = curlExample(options);
  const python = clientExample(options);
  if (!operation || !curl || !python) {
    return (
      <div data-testid={`endpoint-${item.cluster}-${item.namespace}`}>
        <Typography variant="subtitle2">
          {where}: <code>{base}</code>
        </Typography>
        <Typography variant="body2" data-testid="no-operation">
          Category {props.category} serves no OpenAI-compatible operation this
          card has an example for (the api.operations of its engine profile list{' '}
          {props.operations.join(', ') || 'none'}), so there is no call to show.
        </Typography>
      </div>
    );
  }
  return (
    <div data-testid={`endpoint-${item.cluster}-${item.namespace}`}>
      <Typography variant="subtitle2">
        {where}: <code>{base}</code>
      </Typography>
      {direct ? (
        <Typography variant="body2" component="p" data-testid="gateway-unknown">
          Clients call the AI gateway, which routes on the <code>model</code>{' '}
          field. Its address is not configured for cluster {item.cluster}{' '}
          (modelManager.kubernetes.clusters.{item.cluster}.gatewayBaseUrl): ask
          the platform team for it and set <code>{GATEWAY_ENV}</code>.{' '}
          {endpoint.baseUrl} reaches the engine directly, bypassing the gateway:
          for debugging inside the cluster only.
        </Typography>
      ) : (
        <Typography variant="caption" component="p">
          {endpoint.message}
        </Typography>
      )}
      <Typography variant="body2" component="p" data-testid="gateway-paths">
        <code>
          POST {base}
          {operation}
        </code>{' '}
        with <code>"model": "{props.servedName}"</code>.
      </Typography>
      <Typography variant="body2" component="p" data-testid="gateway-token">
        A token: when the gateway is protected (an Envoy Gateway SecurityPolicy
        with API keys or JWT), it answers 401 without one. Ask the platform team
        for a key and <code>export OPENAI_API_KEY=…</code>; the calls below send
        it as <code>Authorization: Bearer</code>. An open gateway ignores it.
      </Typography>
      <Typography variant="overline" component="p">
        curl
      </Typography>
      <CodeBlock language="bash" text={curl} showCopyCodeButton />
      <Typography variant="overline" component="p">
        Python (OpenAI SDK)
      </Typography>
      <CodeBlock language="python" text={python} showCopyCodeButton />
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
