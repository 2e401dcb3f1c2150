export { ClientSnippetCard } from './ClientSnippetCard';
export type { ClientSnippetCardProps } from './ClientSnippetCard';
