export {
  ModelManagerRestClient,
  ModelManagerResponseError,
  queryString,
  readErrorAnswer,
} from './ModelManagerRestClient';
export type {
  ModelManagerTransport,
  QueryValue,
  RouteAnswer,
  RouteInput,
  SentRequest,
} from './ModelManagerRestClient';
export { readFleetEvents } from './readFleetEvents';
