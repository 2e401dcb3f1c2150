export { HistoryTable } from './HistoryTable';
