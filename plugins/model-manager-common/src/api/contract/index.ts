export * from './schemas';
export { modelManagerContract } from './routes';
export type { RouteContract, RouteName } from './routes';
