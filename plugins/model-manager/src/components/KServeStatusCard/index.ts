export { KServeStatusCard } from './KServeStatusCard';
export { WithKServeStatus } from './WithKServeStatus';
