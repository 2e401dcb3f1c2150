export {
  secretKeysInObjects,
  secretNamesInObjects,
  type SecretUse,
} from './secretNamesInObjects';
export { preflightRefusalMessage } from './preflightRefusalMessage';
