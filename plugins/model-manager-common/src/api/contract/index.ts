export * from './schemas';
export * from './answers';
export { modelManagerContract } from './routes';
export type { RouteContract, RouteName } from './routes';
