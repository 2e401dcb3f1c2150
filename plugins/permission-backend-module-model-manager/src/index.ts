/**
 * Permission backend module for model-manager: the opt-in policy "owners deploy their models,
 * an admin group deploys anything, everyone else is denied".
 *
 * @packageDocumentation
 */
export { permissionModuleModelManagerPolicy as default } from './module';
export { ModelManagerPermissionPolicy } from './policy';
