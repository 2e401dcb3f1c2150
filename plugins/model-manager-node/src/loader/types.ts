/** Where a catalog lives on disk. */
export interface CatalogLocation {
  /** Path of models.yaml. */
  modelsFile: string;
  /** Path of the runtimes folder; default: `runtimes/` beside models.yaml. */
  runtimesDir?: string;
}
