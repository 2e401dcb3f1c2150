import {
  servedModelName as engineServedModelName,
  type CatalogRuntime,
  type EndpointRule,
} from '@model-manager/plugin-model-manager-common';

/** One OpenAI-compatible operation a served model answers. */
interface Operation {
  path: string;
  operationId: string;
  summary: string;
  request: string;
  response: string;
}

const CHAT: Operation = {
  path: '/v1/chat/completions',
  operationId: 'createChatCompletion',
  summary: 'Chat completion',
  request: 'ChatCompletionRequest',
  response: 'ChatCompletionResponse',
};
const COMPLETIONS: Operation = {
  path: '/v1/completions',
  operationId: 'createCompletion',
  summary: 'Text completion',
  request: 'CompletionRequest',
  response: 'CompletionResponse',
};
const EMBEDDINGS: Operation = {
  path: '/v1/embeddings',
  operationId: 'createEmbedding',
  summary: 'Embeddings of one or more inputs',
  request: 'EmbeddingRequest',
  response: 'EmbeddingResponse',
};
const RERANK: Operation = {
  path: '/v1/rerank',
  operationId: 'rerank',
  summary: 'Rank documents by relevance to a query',
  request: 'RerankRequest',
  response: 'RerankResponse',
};
const SCORE: Operation = {
  path: '/v1/score',
  operationId: 'score',
  summary: 'Relevance score of text pairs (vLLM only)',
  request: 'ScoreRequest',
  response: 'ScoreResponse',
};

const OPERATIONS: Record<string, Operation> = {
  chat: CHAT,
  completions: COMPLETIONS,
  embeddings: EMBEDDINGS,
  rerank: RERANK,
  score: SCORE,
};

/** What the API of a runtime's engine looks like, from its engine profile and plumbing. */
export interface EngineApi {
  /** The engine's name (profile `engine`). */
  engine: string;
  /** The operations per category (profile `api.operations`). */
  operations: Readonly<Record<string, readonly string[]>>;
  /** The engine's own API path (plumbing `api_prefix`); the gateway maps /v1 onto it. */
  apiPrefix?: string;
  /** Categories whose chat messages may carry images (profile `api.image_input`). */
  imageInput?: readonly string[];
  /** Where clients call a model, per routing value (profile `endpoints:`). */
  endpoints?: Readonly<Record<string, readonly EndpointRule[]>>;
}

/** The API of a runtime's engine, read from its profile (runtimes/<name>/profile.yaml). */
export function engineApi(runtime: CatalogRuntime): EngineApi {
  return {
    engine: runtime.profile.engine,
    operations: runtime.profile.apiOperations,
    apiPrefix: runtime.config.api_prefix,
    imageInput: runtime.profile.apiImageInput,
    endpoints: runtime.profile.endpoints,
  };
}

/** The operations of a category, as the engine's profile declares them (e.g. vLLM adds /v1/score for rerankers). */
function operations(category: string, api: EngineApi): Operation[] {
  const names = Object.prototype.hasOwnProperty.call(api.operations, category)
    ? api.operations[category]
    : [];
  return names.map(n => OPERATIONS[n]).filter(Boolean);
}

/** The OpenAI-compatible paths a model of this category answers; empty for unknown categories. */
export function openAiPaths(category: string, api: EngineApi): string[] {
  return operations(category, api).map(o => o.path);
}

/** The engine's own path where the gateway rewrites `/v1/` to it, e.g. `/v3` for OVMS; else undefined. */
export function gatewayRewrite(api: EngineApi): string | undefined {
  return api.apiPrefix && api.apiPrefix !== '/v1' ? api.apiPrefix : undefined;
}

/**
 * The name clients put in `model`: the runtime's plumbing `served_model_name` decides (vLLM serves
 * the Hugging Face id, OpenVINO the model name); the gateway routes on the same value.
 */
export function servedModelName(model: {
  name: string;
  modelId: string;
  servedModelName?: string;
}): string {
  const which = model.servedModelName;
  return engineServedModelName({
    model: model.name,
    modelId: model.modelId,
    plumbing: { served_model_name: which ? { value: which } : undefined },
  });
}

const text = { type: 'string' };
const textOrList = { oneOf: [text, { type: 'array', items: text }] };
const usage = {
  type: 'object',
  properties: {
    prompt_tokens: { type: 'integer' },
    completion_tokens: { type: 'integer' },
    total_tokens: { type: 'integer' },
  },
};

function schemas(servedName: string, vision: boolean): Record<string, unknown> {
  const model = {
    type: 'string',
    description: 'The served model name.',
    example: servedName,
    enum: [servedName],
  };
  const content = vision
    ? {
        oneOf: [
          text,
          {
            type: 'array',
            description: 'Text and image parts.',
            items: {
              type: 'object',
              required: ['type'],
              properties: {
                type: { type: 'string', enum: ['text', 'image_url'] },
                text: text,
                image_url: {
                  type: 'object',
                  properties: { url: { type: 'string' } },
                },
              },
            },
          },
        ],
      }
    : text;
  const sampling = {
    max_tokens: { type: 'integer', minimum: 1 },
    temperature: { type: 'number', minimum: 0 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    stream: { type: 'boolean', default: false },
  };
  return {
    ChatCompletionRequest: {
      type: 'object',
      required: ['model', 'messages'],
      properties: {
        model,
        messages: {
          type: 'array',
          items: {
            type: 'object',
            required: ['role', 'content'],
            properties: {
              role: {
                type: 'string',
                enum: ['system', 'user', 'assistant', 'tool'],
              },
              content,
            },
          },
        },
        ...sampling,
      },
    },
    ChatCompletionResponse: {
      type: 'object',
      properties: {
        id: text,
        object: { type: 'string', example: 'chat.completion' },
        model: text,
        choices: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              index: { type: 'integer' },
              message: {
                type: 'object',
                properties: { role: text, content: text },
              },
              finish_reason: text,
            },
          },
        },
        usage,
      },
    },
    CompletionRequest: {
      type: 'object',
      required: ['model', 'prompt'],
      properties: { model, prompt: textOrList, ...sampling },
    },
    CompletionResponse: {
      type: 'object',
      properties: {
        id: text,
        object: { type: 'string', example: 'text_completion' },
        model: text,
        choices: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              index: { type: 'integer' },
              text,
              finish_reason: text,
            },
          },
        },
        usage,
      },
    },
    EmbeddingRequest: {
      type: 'object',
      required: ['model', 'input'],
      properties: {
        model,
        input: textOrList,
        encoding_format: { type: 'string', enum: ['float', 'base64'] },
      },
    },
    EmbeddingResponse: {
      type: 'object',
      properties: {
        object: { type: 'string', example: 'list' },
        model: text,
        data: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              index: { type: 'integer' },
              embedding: { type: 'array', items: { type: 'number' } },
            },
          },
        },
        usage,
      },
    },
    RerankRequest: {
      type: 'object',
      required: ['model', 'query', 'documents'],
      properties: {
        model,
        query: text,
        documents: { type: 'array', items: text },
        top_n: { type: 'integer', minimum: 1 },
      },
    },
    RerankResponse: {
      type: 'object',
      properties: {
        model: text,
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              index: { type: 'integer' },
              relevance_score: { type: 'number' },
            },
          },
        },
      },
    },
    ScoreRequest: {
      type: 'object',
      required: ['model', 'text_1', 'text_2'],
      properties: { model, text_1: textOrList, text_2: textOrList },
    },
    ScoreResponse: {
      type: 'object',
      properties: {
        model: text,
        data: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              index: { type: 'integer' },
              score: { type: 'number' },
            },
          },
        },
      },
    },
  };
}

/**
 * The OpenAPI servers of a model, in the order of its routing's endpoint rules (its engine
 * profile's `endpoints.<routing>`): each deployment's `status.url` where clients call `/v1` under
 * it (vLLM behind KServe's managed route; not OpenVINO, whose predictor URL answers OVMS's `/v3`),
 * and each cluster's gateway. The paths of the document carry `/v1`, so a server is the base
 * under which `/v1/...` is called. A routing the profile has no rules for: no servers.
 */
function openAiServers(model: {
  api: EngineApi;
  routing?: string;
  gateways?: Array<{ cluster: string; baseUrl: string }>;
  deployments?: Array<{ cluster: string; namespace: string; url: string }>;
}): Array<{ url: string; description: string }> {
  const endpoints = model.api.endpoints ?? {};
  const rules =
    model.routing !== undefined &&
    Object.prototype.hasOwnProperty.call(endpoints, model.routing)
      ? endpoints[model.routing]
      : [];
  const servers: Array<{ url: string; description: string }> = [];
  for (const { from: source, path } of rules) {
    if (path !== '/v1') continue;
    if (source === 'status-url') {
      for (const d of model.deployments ?? []) {
        servers.push({
          url: d.url.replace(/\/+$/, ''),
          description: `deployed on cluster ${d.cluster}, namespace ${d.namespace} (the URL KServe reports)`,
        });
      }
    } else if (source === 'gateway') {
      for (const g of model.gateways ?? [])
        servers.push({
          url: g.baseUrl,
          description: `the AI gateway of cluster ${g.cluster}`,
        });
    }
  }
  return servers;
}

/**
 * A small OpenAPI 3 document (as JSON, which is also YAML) of the OpenAI-compatible operations a
 * model answers: those its engine profile's `api.operations` gives its category (e.g. llm/vlm ->
 * chat completions and completions, embed -> embeddings, rerank -> rerank, and score on vLLM),
 * with image parts in chat messages for the categories of `api.image_input`. Clients always call `/v1/...`; for OpenVINO Model Server
 * the gateway rewrites to `/v3/`. Returns undefined for a category with no known operations.
 */
export function openAiApiDefinition(model: {
  name: string;
  title: string;
  modelId: string;
  category: string;
  runtime: string;
  /** The engine's API (profile and plumbing): operations per category, gateway rewrite. */
  api: EngineApi;
  /** The runtime's plumbing `served_model_name`. */
  servedModelName?: string;
  serverVersion?: string;
  /** The clusters' gateways (`modelManager.kubernetes.clusters.<name>.gatewayBaseUrl`): the document's servers. */
  gateways?: Array<{ cluster: string; baseUrl: string }>;
  /** The runtime's plumbing `routing` (which URLs clients use: its profile's `endpoints.<routing>`). */
  routing?: string;
  /** Where the model is deployed, with the URL KServe reports there. */
  deployments?: Array<{ cluster: string; namespace: string; url: string }>;
}): string | undefined {
  const ops = operations(model.category, model.api);
  if (ops.length === 0) return undefined;
  const servedName = servedModelName(model);
  const prefix = gatewayRewrite(model.api);
  const rewrite = prefix
    ? ` ${model.api.engine} answers these under ${prefix}/; the gateway rewrites /v1/ to ${prefix}/, so clients always use /v1/.`
    : '';
  const paths: Record<string, unknown> = {};
  for (const op of ops) {
    paths[op.path] = {
      post: {
        operationId: op.operationId,
        summary: op.summary,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${op.request}` },
            },
          },
        },
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${op.response}` },
              },
            },
          },
        },
      },
    };
  }
  const used = new Set(ops.flatMap(o => [o.request, o.response]));
  const all = schemas(
    servedName,
    (model.api.imageInput ?? []).includes(model.category),
  );
  const servers = openAiServers(model);
  const where =
    servers.length > 0
      ? ` Servers: where KServe reports the model deployed, and the clusters' gateways (they route on \`model\`).`
      : ` No endpoint yet: not deployed where KServe reports a URL clients can call at /v1, and no cluster gateway is configured (modelManager.kubernetes.clusters.<cluster>.gatewayBaseUrl).`;
  const document = {
    openapi: '3.0.3',
    info: {
      title: `${model.title} (OpenAI-compatible)`,
      version: model.serverVersion
        ? `${model.runtime} ${model.serverVersion}`
        : model.runtime,
      description: `${model.modelId} (${model.category}) served by ${model.runtime}. Send \`"model": "${servedName}"\`.${rewrite}${where}`,
    },
    ...(servers.length > 0 ? { servers } : {}),
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.entries(all).filter(([name]) => used.has(name)),
      ),
    },
  };
  // Compact JSON: the definition is stored and hashed several times per entity by the catalog
  // (refresh_state, processed and final entity); indenting it doubled the size of every API entity
  // (6.9 KB to 3.2 KB for a chat model). The model's API tab indents it for reading.
  return JSON.stringify(document);
}
