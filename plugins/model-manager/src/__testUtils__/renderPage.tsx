import { useLocation } from 'react-router-dom';
import type { ModelManagerApi } from '../api';
import { renderWithApi } from './renderWithApi';

/** Shows the page's URL query (test id `search`), to check that what the page keeps there is there. */
function UrlQuery() {
  return <div data-testid="search">{useLocation().search}</div>;
}

/** Renders the page `page` at `url` with the fake `api` (as `renderWithApi`), and its URL query under test id `search`. */
export function renderPage(
  api: ModelManagerApi,
  page: JSX.Element,
  url: string,
) {
  return renderWithApi(
    api,
    <>
      {page}
      <UrlQuery />
    </>,
    { routeEntries: [url] },
  );
}
