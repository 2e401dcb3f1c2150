export { KServeStatusCard } from './KServeStatusCard';
