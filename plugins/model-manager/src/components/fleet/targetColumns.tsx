import type { TableColumn } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import type { FleetTarget } from '@model-manager/plugin-model-manager-common';
import { FleetChips } from './FleetChips';
import { FleetStateLabel } from './FleetStateLabel';
import { targetRevisionText } from './targetRevisionText';

/**
 * The columns every table of targets ends with: state with the drift/outdated chips under it (one
 * column, so the Deployments page and the Serving tab fit 1280 px), last revision.
 */
export const targetStatusColumns: TableColumn<FleetTarget>[] = [
  {
    title: 'State / drift',
    render: t => (
      <>
        <FleetStateLabel
          state={t.state}
          reason={t.reason}
          awaitingKServe={t.awaitingKServe}
          download={t.download}
        />
        <Box marginTop={0.5} data-testid="drift-chips">
          <FleetChips target={t} />
        </Box>
      </>
    ),
  },
  {
    title: 'Last revision',
    render: t => (
      <Typography variant="body2">{targetRevisionText(t.revision)}</Typography>
    ),
  },
];
