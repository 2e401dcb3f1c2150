/** The annotation naming the runtime (its folder under runtimes/) on a runtime's Resource entity. */
export const RUNTIME_ANNOTATION = 'model-manager.io/runtime';
