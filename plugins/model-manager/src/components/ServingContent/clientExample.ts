/** A ready-to-copy OpenAI client call fitting the model's category; `servedName` is the `model` the gateway routes on. */
export function clientExample(model: string, servedName: string, category: string): string {
  const head = `from openai import OpenAI\n\nclient = OpenAI(base_url="https://<gateway>/v1", api_key="<token>")\n`;
  switch (category) {
    case 'embed':
      return `${head}result = client.embeddings.create(model="${servedName}", input=["hello world"])\nprint(len(result.data[0].embedding))\n`;
    case 'rerank':
      return `import requests\n\n# ${model}: POST /v1/rerank\nr = requests.post("https://<gateway>/v1/rerank", json={\n    "model": "${servedName}",\n    "query": "what is model serving?",\n    "documents": ["KServe serves models", "bananas are yellow"],\n})\nprint(r.json())\n`;
    default:
      return `${head}reply = client.chat.completions.create(\n    model="${servedName}",\n    messages=[{"role": "user", "content": "Hello!"}],\n)\nprint(reply.choices[0].message.content)\n`;
  }
}
