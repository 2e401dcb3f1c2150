export { ProvidedApisCard } from './ProvidedApisCard';
export { ApiDefinitionContent } from './ApiDefinitionContent';
