export { ModelsPage } from './ModelsPage';
