import { lazy, Suspense } from 'react';

export interface CodeBlockProps {
  text: string;
  language: string;
  showCopyCodeButton?: boolean;
}

const Content = lazy(() =>
  import('./CodeBlockContent').then(m => ({ default: m.CodeBlockContent })),
);

/** Highlighted code with a Copy button, in colours that meet WCAG AA (see CodeBlockContent). */
export function CodeBlock(props: CodeBlockProps) {
  return (
    <Suspense fallback={<div />}>
      <Content {...props} />
    </Suspense>
  );
}
