export { ActionGate } from './ActionGate';
export { identify } from './Caller';
export type { Caller, Identity } from './Caller';
