export interface Config {
  modelManager?: {
    /**
     * The opt-in permission policy of `@model-manager/plugin-permission-backend-module-model-manager`
     * (the portal's packages/backend adds it instead of allow-all when `enabled` is true).
     */
    permissionPolicy?: {
      /** Use this policy instead of allow-all (default false). */
      enabled?: boolean;
      /**
       * Members of this group may deploy and undeploy every model (e.g. group:default/platform).
       * Without it, only a model's owner may.
       */
      adminGroup?: string;
    };
  };
}
