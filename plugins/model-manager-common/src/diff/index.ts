export { diffObject } from './diffObject';
export { diffManifests } from './diffManifests';
