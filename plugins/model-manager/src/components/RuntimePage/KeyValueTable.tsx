import {
  formatEnvValue,
  isSecretKeyRef,
} from '@model-manager/plugin-model-manager-common';
import Table from '@material-ui/core/Table';
import TableBody from '@material-ui/core/TableBody';
import TableCell from '@material-ui/core/TableCell';
import TableRow from '@material-ui/core/TableRow';
import Typography from '@material-ui/core/Typography';

export interface KeyValueTableProps {
  /** Rows in order: the key is shown verbatim (an env var name stays copyable), the value as text. */
  rows: Array<{ key: string; value: unknown; note?: string }>;
  /** What to say when there are no rows. */
  empty: string;
  /** Accessible name of the table. */
  label: string;
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '—';
  // An env var read from a Secret: its reference (the value is never known to the portal).
  if (isSecretKeyRef(value)) return formatEnvValue(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Keys and values as they are written in the runtime's files. Unlike `StructuredMetadataTable`,
 * keys are not turned into Title Case words, so `VLLM_CPU_OMP_THREADS_BIND` stays what to type.
 */
export function KeyValueTable({ rows, empty, label }: KeyValueTableProps) {
  if (rows.length === 0)
    return <Typography variant="body2">{empty}</Typography>;
  return (
    <Table size="small" aria-label={label}>
      <TableBody>
        {rows.map(row => (
          <TableRow key={row.key}>
            <TableCell component="th" scope="row">
              <code>{row.key}</code>
            </TableCell>
            <TableCell>
              <code>{text(row.value)}</code>
              {row.note && (
                <Typography
                  variant="caption"
                  component="div"
                  color="textSecondary"
                >
                  {row.note}
                </Typography>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
