export * from './schemas';
export { modelManagerContract, fleetEventSchema } from './routes';
export type { FleetEvent, RouteContract, RouteName } from './routes';
