export {
  secretKeysInObjects,
  secretNamesInObjects,
  type SecretUse,
} from './secretNamesInObjects';
export {
  APPLY_ANYWAY_REST,
  preflightRefusalMessage,
} from './preflightRefusalMessage';
