import { useEntity } from '@backstage/plugin-catalog-react';
import Grid from '@material-ui/core/Grid';
import type { ReactNode } from 'react';
import { KServeStatusCard } from './KServeStatusCard';
import { MODEL_ANNOTATION } from '@model-manager/plugin-model-manager-common';

/**
 * Other entity content (the stock Kubernetes tab) with the model's KServe status card above it,
 * for model entities only: the stock tab lists pods and "no errors" even when nothing runs, and
 * cannot show KServe's conditions, the weights download or the endpoint.
 */
export function WithKServeStatus({ children }: { children?: ReactNode }) {
  const { entity } = useEntity();
  if (!entity.metadata.annotations?.[MODEL_ANNOTATION]) return <>{children}</>;
  return (
    <Grid container direction="column" spacing={3}>
      <Grid item>
        <KServeStatusCard />
      </Grid>
      <Grid item>{children}</Grid>
    </Grid>
  );
}
