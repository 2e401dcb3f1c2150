import { WarningPanel } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef } from '../api';

/**
 * Says so when the latest edit of models.yaml or runtimes/ is invalid: the portal keeps serving
 * the last good catalog, and the problems (file:line:col, path, fix) are listed.
 */
export function CatalogStatusWarning() {
  const api = useApi(modelManagerApiRef);
  const { value } = useAsync(() => api.catalogStatus(), [api]);
  if (!value || value.ok) return null;
  return (
    <WarningPanel
      severity="warning"
      title="models.yaml has errors: showing the last good catalog"
      defaultExpanded
    >
      <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{value.message}</pre>
    </WarningPanel>
  );
}
