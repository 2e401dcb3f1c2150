import {
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  visit,
  type Document,
} from 'yaml';

/** One broken variant of a catalog file and what kind of damage it has. */
export interface BadVariant {
  name: string;
  file: 'models' | 'vllm-values' | 'openvino-values';
  text: string | Buffer;
}

const WRONG_VALUES: Array<[string, unknown]> = [
  ['a list', ['x']],
  ['a map', { x: 1 }],
  ['a boolean', true],
];

/**
 * Systematically broken models.yaml / values.yaml texts: every key path gets a wrong type, unknown
 * keys are added beside it, required keys are removed; plus syntax errors, duplicate keys, alias
 * bombs, a huge file and non-UTF-8 bytes.
 */
export function badVariants(
  models: string,
  vllmValues: string,
  openvinoValues: string,
): BadVariant[] {
  const variants: BadVariant[] = [];
  const edit = (
    file: BadVariant['file'],
    source: string,
    name: string,
    change: (doc: Document) => boolean,
  ) => {
    const doc = parseDocument(source);
    if (change(doc))
      variants.push({ name, file, text: doc.toString({ lineWidth: 0 }) });
  };
  const paths = (source: string): Array<Array<string | number>> => {
    const out: Array<Array<string | number>> = [];
    const doc = parseDocument(source);
    visit(doc, {
      Pair(_k, pair, ancestors) {
        if (!isScalar(pair.key)) return;
        const path: Array<string | number> = [];
        for (const a of ancestors) {
          if ((a as any).key && isScalar((a as any).key))
            path.push(String((a as any).key.value));
        }
        path.push(String(pair.key.value));
        out.push(path);
      },
    });
    return out;
  };

  for (const [file, source] of [
    ['models', models],
    ['vllm-values', vllmValues],
    ['openvino-values', openvinoValues],
  ] as const) {
    for (const path of paths(source)) {
      const node = parseDocument(source).getIn(path, true);
      const where = path.join('.');
      for (const [what, value] of WRONG_VALUES) {
        // A string field given a map/list/bool; a map given a scalar, and so on.
        const isCollection = isMap(node) || isSeq(node);
        if (isCollection && what !== 'a boolean') continue;
        if (
          !isCollection &&
          isScalar(node) &&
          typeof node.value === 'boolean' &&
          what === 'a boolean'
        )
          continue;
        if (where.endsWith('.env') && what === 'a map') continue;
        if (/\.env\.[A-Z0-9_]+$/.test(where) && what === 'a boolean') continue; // booleans are valid env values
        edit(file, source, `${file}: ${where} is ${what}`, doc => {
          doc.setIn(path, doc.createNode(value));
          return true;
        });
      }
      const parent = path.slice(0, -1);
      const parentNode = parent.length
        ? parseDocument(source).getIn(parent, true)
        : parseDocument(source).contents;
      // Any name is a valid key of an env map (a new variable), so skip those parents.
      if (isMap(parentNode) && !/(^|\.)env$/.test(parent.join('.'))) {
        edit(file, source, `${file}: unknown key beside ${where}`, doc => {
          const p = parent.length
            ? (doc.getIn(parent, true) as any)
            : (doc.contents as any);
          p.set(`${String(path[path.length - 1])}_typo`, 'x');
          return true;
        });
      }
    }
  }
  // Required keys removed.
  for (const required of [
    ['models', 'qwen2-5-7b-instruct', 'model_id'],
    ['models', 'qwen2-5-7b-instruct', 'category'],
    ['models', 'bge-m3', 'server'],
    ['models', 'bge-m3', 'server', 'runtime'],
    ['runtimes', 'vllm', 'categories'],
    ['runtimes', 'vllm', 'versions', '0.24.0', 'image'],
    ['models'],
    ['runtimes'],
  ]) {
    edit('models', models, `models: ${required.join('.')} removed`, doc =>
      doc.deleteIn(required),
    );
  }
  // Syntax errors and other damage to the text itself.
  const lines = models.split('\n');
  const textual: Array<[string, string | Buffer]> = [
    [
      'unclosed flow sequence',
      models.replace('tags: [chat, general]', 'tags: [chat, general'),
    ],
    [
      'tab indentation',
      models.replace(
        '\n    model_id: Qwen/Qwen2.5-7B-Instruct',
        '\n\tmodel_id: Qwen/Qwen2.5-7B-Instruct',
      ),
    ],
    [
      'bad indentation',
      models.replace('\n    category: llm\n', '\n      category: llm\n'),
    ],
    [
      'duplicate model',
      models.replace(
        '\n  bge-m3:\n',
        '\n  bge-m3:\n    model_id: BAAI/bge-m3\n  bge-m3:\n',
      ),
    ],
    [
      'duplicate key in a model',
      models.replace(
        '    category: embed\n',
        '    category: embed\n    category: rerank\n',
      ),
    ],
    ['unterminated quote', models.replace('"0.24.0"\n', '"0.24.0\n')],
    ['second document', `${models}\n---\nmodels: {}\n`],
    [
      'alias bomb',
      `a: &a ["x","x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n${models}`,
    ],
    [
      'undefined alias',
      models.replace('tags: [chat, general]', 'tags: *nothing'),
    ],
    ['a scalar document', 'just text\n'],
    ['a list document', '- a\n- b\n'],
    ['empty document', ''],
    ['only a comment', '# nothing here\n'],
    [
      'truncated in the middle',
      `${lines
        .slice(0, Math.floor(lines.length / 2))
        .join('\n')}\n    server: [\n`,
    ],
    ['huge file', `${models}# ${'x'.repeat(17 * 1024 * 1024)}\n`],
    [
      'non-UTF-8 byte',
      Buffer.concat([
        Buffer.from(models.slice(0, 200)),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(models.slice(200)),
      ]),
    ],
    [
      'NUL in a value',
      models.replace('General-purpose chat model', 'General\u0000purpose'),
    ],
  ];
  for (const [name, text] of textual)
    variants.push({ name: `models: ${name}`, file: 'models', text });
  return variants;
}
