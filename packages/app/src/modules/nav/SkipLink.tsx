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
 * "Skip to content": moves the keyboard focus past the sidebar to the page: its `<main>` where
 * there is one, else its title (the page header's `<h1>`; the new frontend system's layout has no
 * `<main>`), so the next Tab is the page's first control. Backstage's own skip button (core-components Sidebar) shows only inside
 * a `SidebarPage` with a content ref, which the new frontend system's layout does not give it.
 */
export function SkipLink() {
  const classes = useStyles();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const target =
      document.querySelector<HTMLElement>('main') ??
      document.querySelector<HTMLElement>('h1');
    if (!target) return;
    event.preventDefault();
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
  };
  return (
    <a href="#main" className={classes.link} onClick={skip}>
      Skip to content
    </a>
  );
}
