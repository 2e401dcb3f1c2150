export { WhyNotReadyPanel } from './WhyNotReadyPanel';
