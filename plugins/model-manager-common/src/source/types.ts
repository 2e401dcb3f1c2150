/** A position in a source file, 1-based. */
export interface SourcePosition {
  line: number;
  col: number;
}

/** One thing wrong with an input file, located precisely enough to fix it. */
export interface CatalogProblem {
  /** The file, as shown to the user (e.g. `models.yaml`). */
  file: string;
  line?: number;
  col?: number;
  /** The dotted path of the offending key or value (e.g. `models.qwen.server.server_version`). */
  path: string;
  /** What is wrong and what to do about it. */
  message: string;
}

/** A parsed YAML file that can locate any path back to its line and column. */
export interface SourceDocument {
  file: string;
  data: unknown;
  /** Where the key at `path` is written (or, with `'value'`, its value). */
  locate(
    path: ReadonlyArray<string | number>,
    at?: 'key' | 'value',
  ): SourcePosition | undefined;
}
