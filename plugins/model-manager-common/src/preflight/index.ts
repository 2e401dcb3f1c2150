export { referencedSecrets } from './referencedSecrets';
