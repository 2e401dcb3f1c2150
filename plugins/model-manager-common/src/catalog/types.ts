import type { ModelConfig, RuntimeConfig } from '../schema/modelsFileSchema';
import type { SourceDocument } from '../source/types';
import type { EngineProfile } from '../profile/types';
import type { ParsedTemplate } from '../renderer/types';
import type { Layer } from '../resolver/layers';

/** The text of one input file, as read by whoever has a filesystem (backend, CLI, tests). */
export interface SourceText {
  /** Shown in messages, e.g. `models.yaml` or `runtimes/vllm/values.yaml`. */
  file: string;
  text: string;
}

/** Everything a catalog is built from. The engine itself never touches the filesystem. */
export interface CatalogSources {
  models: SourceText;
  /** runtimes/<runtime>/values.yaml, keyed by runtime name. */
  values: Record<string, SourceText>;
  /** runtimes/<runtime>/profile.yaml (engine profiles), keyed by path under runtimes/ (`vllm/profile.yaml`). */
  profiles: Record<string, SourceText>;
  /** runtimes/templates/*.yaml, keyed by file name (e.g. `inference-service.yaml`). */
  templates: Record<string, SourceText>;
  /**
   * The other .yaml files of runtime folders, keyed by their path relative to runtimes/: manifests
   * named by `serving_runtime_manifest`, and templates a profile names (`<runtime>/<file>.yaml`).
   */
  manifests: Record<string, SourceText>;
}

/** The layer that set a value: one of {@link LAYERS}. */
export type { Layer };

/** Where a value came from: the layer, the file and the dotted path (and line:col when known). */
export interface Origin {
  layer: Layer;
  file: string;
  path: string;
  line?: number;
  col?: number;
}

export interface CatalogModel {
  name: string;
  config: ModelConfig;
}

export interface CatalogRuntime {
  name: string;
  /** models.yaml's entry with values.yaml merged in (models.yaml wins on any clash). */
  config: RuntimeConfig & { kind: string };
  /** The engine profile (runtimes/<name>/profile.yaml): what differs between engines. */
  profile: EngineProfile;
  /** Where each plumbing key was set: values.yaml or models.yaml. */
  plumbingOrigins: Partial<Record<string, Origin>>;
  /** True when the runtime has a `versions:` axis. */
  versioned: boolean;
  /** The ClusterServingRuntime (or similar) applied on first deploy, if any. */
  servingRuntime?: { file: string; manifest: Record<string, unknown> };
}

/** A validated, merged catalog: every model resolves with no overrides. */
export interface Catalog {
  modelsFile: string;
  models: Record<string, CatalogModel>;
  runtimes: Record<string, CatalogRuntime>;
  /** Parsed templates, keyed by their path under runtimes/ (`templates/inference-service.yaml`). */
  templates: Record<string, ParsedTemplate>;
  /**
   * An origin for a path of a source file. Its line:col is filled in by {@link Catalog.locate}
   * (loading thousands of models never pays for positions nobody reads).
   */
  origin(
    layer: Layer,
    file: string,
    path: ReadonlyArray<string | number>,
  ): Origin;
  /** Fills in line:col of origins made by {@link Catalog.origin}; returns the same objects. */
  locate<T extends Origin>(origin: T): T;
  /** Warnings that do not make the catalog invalid (e.g. a values.yaml for an unused runtime). */
  warnings: string[];
}

export type SourceIndex = Record<string, SourceDocument>;
