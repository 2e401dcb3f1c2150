import type { TableColumn } from '@backstage/core-components';
import Typography from '@material-ui/core/Typography';
import type { FleetTarget } from '@model-manager/plugin-model-manager-common';
import { FleetChips } from './FleetChips';
import { FleetStateLabel } from './FleetStateLabel';
import { targetRevisionText } from './targetRevisionText';

/** The columns every table of targets ends with: state, drift/outdated chips, last revision. */
export const targetStatusColumns: TableColumn<FleetTarget>[] = [
  {
    title: 'State',
    render: t => (
      <FleetStateLabel
        state={t.state}
        reason={t.reason}
        awaitingKServe={t.awaitingKServe}
      />
    ),
  },
  { title: 'Drift / outdated', render: t => <FleetChips target={t} /> },
  {
    title: 'Last revision',
    render: t => (
      <Typography variant="body2">{targetRevisionText(t.revision)}</Typography>
    ),
  },
];
