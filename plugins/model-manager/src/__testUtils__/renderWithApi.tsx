import type { Entity } from '@backstage/catalog-model';
import type { PermissionApi } from '@backstage/plugin-permission-react';
import { toastApiRef, type ToastApi } from '@backstage/frontend-plugin-api';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import {
  MockPermissionApi,
  renderInTestApp,
  TestApiProvider,
} from '@backstage/test-utils';
import { SWRConfig } from 'swr';
import { modelManagerApiRef, type ModelManagerApi } from '../api';

/** What a test sets of the app around the element it renders; the rest is the default. */
export type TestAppOptions = {
  /** The catalog entity whose page the element is on; none by default. */
  entity?: Entity;
  /** Who may do what; everything is allowed by default. */
  permissions?: PermissionApi;
  /** Where toasts go; nowhere by default. */
  toast?: ToastApi;
};

/**
 * `element` with the APIs the plugin's components use: the model-manager API (`api`, a fake),
 * permissions and toasts, and a fresh SWR cache (`usePermission` caches its decisions in it, so no
 * test sees another's); on the page of `entity` if given. An element, so `rerender` can take it.
 */
export function withApi(
  api: ModelManagerApi,
  element: JSX.Element,
  options: TestAppOptions = {},
): JSX.Element {
  return (
    <SWRConfig value={{ provider: () => new Map() }}>
      <TestApiProvider
        apis={[
          [modelManagerApiRef, api],
          [permissionApiRef, options.permissions ?? new MockPermissionApi()],
          [toastApiRef, options.toast ?? { post: () => ({ close: () => {} }) }],
        ]}
      >
        {options.entity ? (
          <EntityProvider entity={options.entity}>{element}</EntityProvider>
        ) : (
          element
        )}
      </TestApiProvider>
    </SWRConfig>
  );
}

/** Renders `element` in the test app with the APIs of `withApi`, at `routeEntries` if given. */
export function renderWithApi(
  api: ModelManagerApi,
  element: JSX.Element,
  options: TestAppOptions & { routeEntries?: string[] } = {},
) {
  return renderInTestApp(withApi(api, element, options), {
    routeEntries: options.routeEntries,
  });
}
