import { makeStyles } from '@material-ui/core';
import type { MouseEvent } from 'react';

const useStyles = makeStyles(theme => ({
  // Off-screen until focused (WCAG 2.4.1 Bypass Blocks): the keyboard's first stop on every page.
  link: {
    position: 'absolute',
    left: -10000,
    top: 'auto',
    width: 1,
    height: 1,
    overflow: 'hidden',
    '&:focus': {
      left: theme.spacing(1),
      top: theme.spacing(1),
      width: 'auto',
      height: 'auto',
      padding: theme.spacing(1, 2),
      zIndex: theme.zIndex.tooltip + 1,
      background: theme.palette.background.paper,
      color: theme.palette.text.primary,
      outline: `2px solid ${theme.palette.primary.main}`,
    },
  },
}));

/**
 * "Skip to content": moves the keyboard focus past the sidebar to the page's main region (the
 * app layout's `<main>`). Backstage's own skip button (core-components Sidebar) shows only inside
 * a `SidebarPage` with a content ref, which the new frontend system's layout does not give it.
 */
export function SkipLink() {
  const classes = useStyles();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.querySelector('main');
    if (!main) return;
    event.preventDefault();
    if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
    main.focus();
  };
  return (
    <a href="#main" className={classes.link} onClick={skip}>
      Skip to content
    </a>
  );
}
