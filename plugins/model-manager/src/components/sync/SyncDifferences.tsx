import Chip from '@material-ui/core/Chip';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableHead from '@material-ui/core/TableHead';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';
import type { SyncDifference } from '@model-manager/plugin-model-manager-common';
import { formatValue } from '../fleet';
import { REASON_LABELS } from './reasonWords';

/**
 * What runs against what a new deploy would apply, field by field, each with its reason (a
 * request, a rollout, drift, a models.yaml change) in words.
 */
export function SyncDifferences(props: { differences: SyncDifference[] }) {
  if (props.differences.length === 0)
    return (
      <Typography variant="body2">
        No difference: what runs is what a new deploy would apply.
      </Typography>
    );
  return (
    <Table size="small" aria-label="Differences">
      <TableHead>
        <TableRow>
          <TableCell>Field</TableCell>
          <TableCell>What runs</TableCell>
          <TableCell>A new deploy would apply</TableCell>
          <TableCell>Why</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {props.differences.map(d => (
          <TableRow key={`${d.kind}/${d.name}${d.path}`}>
            <TableCell>
              <Typography variant="caption">
                {d.kind} {d.name}
              </Typography>
              <div>
                <code style={{ wordBreak: 'break-all' }}>{d.path}</code>
              </div>
            </TableCell>
            <TableCell>
              <code style={{ wordBreak: 'break-all' }}>
                {d.path === '.' && d.runs === undefined
                  ? '(not on the cluster)'
                  : formatValue(d.runs)}
              </code>
              {d.applied !== undefined && (
                <Typography variant="caption" component="div">
                  applied: <code>{formatValue(d.applied)}</code>
                </Typography>
              )}
            </TableCell>
            <TableCell>
              <code style={{ wordBreak: 'break-all' }}>
                {formatValue(d.newDeploy)}
              </code>
            </TableCell>
            <TableCell>
              <Chip
                size="small"
                label={REASON_LABELS[d.reason]}
                data-testid={`reason-${d.reason}`}
              />
              <Typography variant="caption" component="div">
                {d.text}
              </Typography>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
