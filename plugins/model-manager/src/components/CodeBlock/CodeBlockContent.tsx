/// <reference types="react-syntax-highlighter" />
import { CopyTextButton } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import { useTheme } from '@material-ui/core/styles';
import LightAsync from 'react-syntax-highlighter/dist/esm/light-async';
import {
  a11yDark,
  a11yLight,
} from 'react-syntax-highlighter/dist/esm/styles/hljs';
import type { CodeBlockProps } from './CodeBlock';

/**
 * Backstage's CodeSnippet (the same highlighter, language loading and Copy button) with the
 * highlight.js a11y themes, whose token colours meet WCAG AA's 4.5:1 on their background:
 * CodeSnippet's docco gives strings (most of a YAML manifest's values) #219161 on #f8f8ff, 3.75:1.
 * The themes: https://github.com/highlightjs/highlight.js/blob/main/src/styles/a11y-light.css
 */
export function CodeBlockContent(props: CodeBlockProps) {
  const theme = useTheme();
  return (
    <Box position="relative">
      <LightAsync
        language={props.language}
        style={theme.palette.type === 'dark' ? a11yDark : a11yLight}
        wrapLines
        customStyle={{ margin: 0, padding: theme.spacing(1.5) }}
      >
        {props.text}
      </LightAsync>
      {props.showCopyCodeButton && (
        <Box position="absolute" top={0} right={0}>
          <CopyTextButton text={props.text} />
        </Box>
      )}
    </Box>
  );
}
