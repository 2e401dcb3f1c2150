export { ModelManagerPermissionPolicy } from './ModelManagerPermissionPolicy';
