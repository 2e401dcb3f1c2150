export { secretNamesInObjects } from './secretNamesInObjects';
