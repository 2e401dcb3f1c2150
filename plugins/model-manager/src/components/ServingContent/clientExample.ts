/** One OpenAI-compatible call of a category: the operation below the base URL and its JSON body. */
interface Call {
  /** Below the base URL (`<baseUrl>/chat/completions`). */
  operation: string;
  body: (servedName: string) => Record<string, unknown>;
}

const CALLS: Record<string, Call> = {
  chat: {
    operation: '/chat/completions',
    body: model => ({ model, messages: [{ role: 'user', content: 'Hello!' }] }),
  },
  embed: {
    operation: '/embeddings',
    body: model => ({ model, input: ['hello world'] }),
  },
  rerank: {
    operation: '/rerank',
    body: model => ({
      model,
      query: 'what is model serving?',
      documents: ['KServe serves models', 'bananas are yellow'],
    }),
  },
};

const callOf = (category: string): Call =>
  category === 'embed'
    ? CALLS.embed
    : category === 'rerank'
    ? CALLS.rerank
    : CALLS.chat;

/** The operation clients call below the base URL for a category (`/chat/completions`). */
export const operationOf = (category: string) => callOf(category).operation;

export interface ClientExampleOptions {
  /** The model's name in models.yaml. */
  model: string;
  /** The `model` clients send: the served model name the engine and the gateway route on. */
  servedName: string;
  category: string;
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

/** A ready-to-copy curl call fitting the model's category, against the real endpoint. */
export function curlExample(options: ClientExampleOptions): string {
  const { servedName, category } = options;
  const call = callOf(category);
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
 * A ready-to-copy Python call fitting the model's category: the OpenAI SDK for chat and
 * embeddings; `requests` for rerank, which the OpenAI SDK has no method for.
 */
export function clientExample(options: ClientExampleOptions): string {
  const { model, servedName, category } = options;
  const { python, shell } = baseUrlIn(options);
  const head = `import os\nfrom openai import OpenAI\n\n# The gateway's token, if it asks for one.\nclient = OpenAI(base_url=${python}, api_key=os.environ.get("OPENAI_API_KEY", "none"))\n`;
  switch (category) {
    case 'embed':
      return `${head}result = client.embeddings.create(model="${servedName}", input=["hello world"])\nprint(len(result.data[0].embedding))\n`;
    case 'rerank':
      return `import os\nimport requests\n\n# ${model}: POST ${shell.replace(
        /"/g,
        '',
      )}/rerank\nr = requests.post(\n    ${python} + "/rerank",\n    headers={"Authorization": f"Bearer {os.environ.get('OPENAI_API_KEY', 'none')}"},\n    json={\n        "model": "${servedName}",\n        "query": "what is model serving?",\n        "documents": ["KServe serves models", "bananas are yellow"],\n    },\n)\nprint(r.json())\n`;
    default:
      return `${head}reply = client.chat.completions.create(\n    model="${servedName}",\n    messages=[{"role": "user", "content": "Hello!"}],\n)\nprint(reply.choices[0].message.content)\n`;
  }
}
