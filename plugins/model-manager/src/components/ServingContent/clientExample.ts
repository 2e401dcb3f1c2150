/**
 * One OpenAI-compatible call: the operation below the base URL, its JSON body, and the Python that
 * makes it (the OpenAI SDK where it has a method, `requests` otherwise).
 */
interface Call {
  /** Below the base URL (`<baseUrl>/chat/completions`). */
  operation: string;
  body: (servedName: string) => Record<string, unknown>;
  /** The Python after the client is made (`client`), or a whole `requests` program. */
  python: (o: { servedName: string; head: string; post: PostIn }) => string;
}

/** A `requests.post` of a body to an operation, for the calls the OpenAI SDK has no method for. */
type PostIn = (operation: string, json: string) => string;

const RERANK_BODY = {
  query: 'what is model serving?',
  documents: ['KServe serves models', 'bananas are yellow'],
};

/**
 * The calls, by the operation names of engine profiles (`api.operations`: chat, completions,
 * embeddings, rerank, score). A category's example is the first of its operations listed here.
 */
const CALLS: Record<string, Call> = {
  chat: {
    operation: '/chat/completions',
    body: model => ({ model, messages: [{ role: 'user', content: 'Hello!' }] }),
    python: ({ servedName, head }) =>
      `${head}reply = client.chat.completions.create(\n    model="${servedName}",\n    messages=[{"role": "user", "content": "Hello!"}],\n)\nprint(reply.choices[0].message.content)\n`,
  },
  completions: {
    operation: '/completions',
    body: model => ({ model, prompt: 'Hello!' }),
    python: ({ servedName, head }) =>
      `${head}reply = client.completions.create(model="${servedName}", prompt="Hello!")\nprint(reply.choices[0].text)\n`,
  },
  embeddings: {
    operation: '/embeddings',
    body: model => ({ model, input: ['hello world'] }),
    python: ({ servedName, head }) =>
      `${head}result = client.embeddings.create(model="${servedName}", input=["hello world"])\nprint(len(result.data[0].embedding))\n`,
  },
  rerank: {
    operation: '/rerank',
    body: model => ({ model, ...RERANK_BODY }),
    python: ({ servedName, post }) =>
      post(
        '/rerank',
        `{\n        "model": "${servedName}",\n        "query": "what is model serving?",\n        "documents": ["KServe serves models", "bananas are yellow"],\n    }`,
      ),
  },
  score: {
    operation: '/score',
    body: model => ({
      model,
      text_1: 'what is model serving?',
      text_2: ['KServe serves models', 'bananas are yellow'],
    }),
    python: ({ servedName, post }) =>
      post(
        '/score',
        `{\n        "model": "${servedName}",\n        "text_1": "what is model serving?",\n        "text_2": ["KServe serves models", "bananas are yellow"],\n    }`,
      ),
  },
};

/** The call shown for a category that serves these operations; undefined when none is known. */
const callOf = (operations: readonly string[]): Call | undefined =>
  operations
    .filter(o => Object.prototype.hasOwnProperty.call(CALLS, o))
    .map(o => CALLS[o])[0];

/**
 * The operation clients call below the base URL for a category that serves these operations
 * (`/chat/completions`); undefined when the engine profile gives it none model-manager can show.
 */
export const operationOf = (operations: readonly string[]) =>
  callOf(operations)?.operation;

export interface ClientExampleOptions {
  /** The model's name in models.yaml. */
  model: string;
  /** The `model` clients send: the served model name the engine and the gateway route on. */
  servedName: string;
  /**
   * The OpenAI-compatible operations the model's category serves on its engine (profile
   * `api.operations`, from `GET /models/:name/resolved`); the example is of the first one known.
   */
  operations: readonly string[];
  /** What an OpenAI client takes as base_url, e.g. `https://gateway.example.com/v1` (from the status endpoint). */
  baseUrl: string;
  /**
   * The base URL is not known here: the snippets read it from this environment variable plus
   * `/v1` (`$AI_GATEWAY_URL/v1`), and `baseUrl` is ignored.
   */
  baseUrlFromEnv?: string;
}

/** The base URL as curl (a shell) and Python write it. */
function baseUrlIn(options: ClientExampleOptions) {
  const env = options.baseUrlFromEnv;
  return env
    ? { shell: `"$${env}/v1"`, python: `os.environ["${env}"] + "/v1"` }
    : { shell: options.baseUrl, python: `"${options.baseUrl}"` };
}

/**
 * A ready-to-copy curl call fitting the model's category (its first operation), against the real
 * endpoint; undefined when the category serves no operation known here.
 */
export function curlExample(options: ClientExampleOptions): string | undefined {
  const { servedName, operations } = options;
  const call = callOf(operations);
  if (!call) return undefined;
  const { shell } = baseUrlIn(options);
  const body = JSON.stringify(call.body(servedName), null, 2).replace(
    /'/g,
    `'\\''`,
  );
  const url = shell.endsWith('"')
    ? `${shell.slice(0, -1)}${call.operation}"`
    : `${shell}${call.operation}`;
  return `curl ${url} \\\n  -H "Content-Type: application/json" \\\n  -H "Authorization: Bearer $OPENAI_API_KEY" \\\n  -d '${body}'\n`;
}

/**
 * A ready-to-copy Python call fitting the model's category (its first operation): the OpenAI SDK
 * for chat, completions and embeddings; `requests` for rerank and score, which the OpenAI SDK has
 * no method for. Undefined when the category serves no operation known here.
 */
export function clientExample(
  options: ClientExampleOptions,
): string | undefined {
  const { model, servedName, operations } = options;
  const call = callOf(operations);
  if (!call) return undefined;
  const { python, shell } = baseUrlIn(options);
  const head = `import os\nfrom openai import OpenAI\n\n# The gateway's token, if it asks for one.\nclient = OpenAI(base_url=${python}, api_key=os.environ.get("OPENAI_API_KEY", "none"))\n`;
  const post: PostIn = (operation, json) =>
    `import os\nimport requests\n\n# ${model}: POST ${shell.replace(
      /"/g,
      '',
    )}${operation}\nr = requests.post(\n    ${python} + "${operation}",\n    headers={"Authorization": f"Bearer {os.environ.get('OPENAI_API_KEY', 'none')}"},\n    json=${json},\n)\nprint(r.json())\n`;
  return call.python({ servedName, head, post });
}
