/** Where a model's objects go in a GitOps repository: `<targetPath>/<cluster>/<namespace>/<model>/`. */
export interface GitOpsTarget {
  /** The cluster (a name of kubernetes.clusterLocatorMethods, such as `local`). */
  cluster: string;
  /** The namespace the objects were rendered for. */
  namespace: string;
  /** The model's name in models.yaml. */
  model: string;
  /** A folder of the repository to put `<cluster>/` under (relative, `/`-separated; default: the root). */
  targetPath?: string;
}

/** One file of the layout: a path relative to where the layout is written, and its text. */
export interface GitOpsFile {
  path: string;
  content: string;
}
