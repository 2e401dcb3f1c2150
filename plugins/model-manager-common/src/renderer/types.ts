/** A template file parsed once at load time: its YAML tree and the placeholders it uses. */
export interface ParsedTemplate {
  file: string;
  tree: unknown;
  placeholders: Array<{ name: string; line: number; col: number }>;
}

/** A value that may be placed in a template. `undefined` removes the key or list item. */
export type TemplateValue =
  | string
  | number
  | boolean
  | undefined
  | TemplateValue[]
  | { [key: string]: TemplateValue };

export type TemplateContext = Record<string, TemplateValue>;

/** How the applier treats an object. */
export type ApplyPolicy =
  /** server-side apply, every deploy */
  | 'apply'
  /**
   * A shared object (the ClusterServingRuntime, a namespace's weights PersistentVolumeClaim):
   * applied only when absent from the cluster (the spec's "applied on first deploy"), never
   * changed afterwards, and never deleted by an undeploy (other models use it).
   */
  | 'create-if-absent'
  /**
   * Server-side apply, every deploy; when the API server refuses the change because a field is
   * immutable (a Job's pod template, kubernetes pkg/apis/batch/validation ValidateJobSpecUpdate),
   * the live object is deleted (propagationPolicy Background) and created again, as
   * `kubectl replace --force` does. For objects whose only state is what they run (the weights
   * download Job): never for an object a model serves from.
   */
  | 'recreate-when-immutable';

export interface RenderedObject {
  apiVersion: string;
  kind: string;
  name: string;
  /** Absent for cluster-scoped objects. */
  namespace?: string;
  applyPolicy: ApplyPolicy;
  /** The template or manifest file it came from. */
  source: string;
  manifest: Record<string, unknown>;
}
