import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { screen } from '@testing-library/react';
import { PageBlueprint } from '@backstage/frontend-plugin-api';
import { renderInTestApp, renderTestApp } from '@backstage/frontend-test-utils';
import { SidebarOpenStateProvider } from '@backstage/core-components';
import { useLocation } from 'react-router-dom';
import { SidebarLogo } from './SidebarLogo';

/** The `app` section of the repository's app-config.yaml: what the portal really runs with. */
const appConfig = parse(
  readFileSync(
    path.resolve(__dirname, '../../../../../app-config.yaml'),
    'utf8',
  ),
).app;

const Where = () => <div>at {useLocation().pathname}</div>;

/** Stand-ins for the catalog's pages at the paths the catalog plugin mounts them. */
const catalogPage = PageBlueprint.make({
  name: 'test-catalog',
  params: { path: '/catalog', loader: async () => <Where /> },
});

describe('navigation', () => {
  it.each([
    ['/', '/catalog'],
    ['/catalog', '/catalog'],
    [
      '/catalog/default/resource/vllm',
      '/catalog/default/resource/vllm-runtime',
    ],
    [
      '/catalog/default/resource/openvino/runtime',
      '/catalog/default/resource/openvino-runtime/runtime',
    ],
    [
      '/catalog/default/resource/vllm-runtime',
      '/catalog/default/resource/vllm-runtime',
    ],
  ])('%s leads to %s', async (from, to) => {
    renderTestApp({
      config: { app: { extensions: appConfig.extensions } },
      extensions: [catalogPage],
      initialRouteEntries: [from],
    });
    expect(
      await screen.findByText(new RegExp(`^at ${to}/?$`)),
    ).toBeInTheDocument();
  });

  it('the sidebar logo says the name the sign-in page says (app.title)', async () => {
    await renderInTestApp(
      <SidebarOpenStateProvider value={{ isOpen: true, setOpen: () => {} }}>
        <SidebarLogo />
      </SidebarOpenStateProvider>,
      { config: { app: { title: appConfig.title } } },
    );
    expect(appConfig.title).toBe('Model Manager');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveTextContent(
      'Model Manager',
    );
  });
});
