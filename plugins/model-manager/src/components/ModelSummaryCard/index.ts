export { ModelSummaryCard } from './ModelSummaryCard';
