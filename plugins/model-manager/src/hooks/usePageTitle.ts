import { useEffect } from 'react';
import { configApiRef, useApi } from '@backstage/core-plugin-api';

/**
 * Sets the browser tab's title to `<title> | <app.title>` while the page is shown, the form
 * Backstage's own pages use (core-components' Header), so the tab does not keep the title of the
 * page visited before. The previous title comes back when the page goes away.
 */
export function usePageTitle(title: string) {
  const appTitle =
    useApi(configApiRef).getOptionalString('app.title') ?? 'Backstage';
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} | ${appTitle}`;
    return () => {
      document.title = previous;
    };
  }, [title, appTitle]);
}
