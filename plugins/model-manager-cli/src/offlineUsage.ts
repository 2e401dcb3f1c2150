import path from 'node:path';

/** Where the catalog is read from: every offline command takes these. */
const CATALOG = ['models', 'runtimes'];
/** A request's overrides, for the commands that resolve a model. */
const OVERRIDES = ['server-version', 'env', 'env-secret', 'arg'];

/** What each command that reads models.yaml takes: its options, and how many positionals. */
const OFFLINE: Record<
  string,
  { options: readonly string[]; positionals: number }
> = {
  validate: { options: CATALOG, positionals: 1 },
  list: { options: [...CATALOG, 'json'], positionals: 0 },
  resolve: {
    options: [...CATALOG, ...OVERRIDES, 'explain', 'json'],
    positionals: 1,
  },
  render: {
    options: [
      ...CATALOG,
      ...OVERRIDES,
      'namespace',
      'output',
      'out-dir',
      'cluster',
    ],
    positionals: 1,
  },
};

/**
 * An option the command does not read, or an extra argument, is bad usage: ignored, it would give
 * a script another format than it asked for (`render --json` printed YAML) with exit 0.
 */
export function offlineMisuse(
  command: string,
  rest: readonly string[],
  values: Record<string, unknown>,
): string | undefined {
  const takes = OFFLINE[command];
  if (!takes) return undefined;
  const unread = Object.keys(values).filter(
    k => values[k] !== undefined && !takes.options.includes(k),
  );
  if (unread.length > 0)
    return `${unread
      .map(k => `--${k}`)
      .join(', ')} does not apply to ${command} (it takes ${takes.options
      .map(o => `--${o}`)
      .join(', ')})${
      command === 'render' && unread.includes('json')
        ? '; for JSON, -o json'
        : ''
    }${
      command === 'resolve' && unread.includes('output')
        ? '; for JSON, --json'
        : ''
    }`;
  if (rest.length > takes.positionals)
    return `unexpected ${rest
      .slice(takes.positionals)
      .map(a => `'${a}'`)
      .join(' ')}: ${command} takes ${
      takes.positionals === 0
        ? 'no argument'
        : takes.positionals === 1 && command === 'validate'
        ? 'at most one file'
        : 'one model'
    }`;
  if (command === 'validate' && rest.length > 0 && values.models !== undefined)
    return `give the file once: as an argument or with -f, not both`;
  if (
    command === 'render' &&
    values.cluster !== undefined &&
    values['out-dir'] === undefined
  )
    return '--cluster applies to render with --out-dir (the GitOps layout), not to printed manifests';
  return undefined;
}

/** A file the loader named from `base` (the folder of models.yaml), as seen from `cwd`. */
export function fromCwd(file: string, base: string, cwd: string): string {
  const absolute = path.resolve(base, file);
  const relative = path.relative(cwd, absolute);
  return relative === '' || relative.startsWith('..') ? absolute : relative;
}
