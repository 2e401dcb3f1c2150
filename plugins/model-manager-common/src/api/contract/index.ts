export * from './schemas';
export * from './answers';
export { modelManagerContract, fleetEventSchema } from './routes';
export type { FleetEvent, RouteContract, RouteName } from './routes';
