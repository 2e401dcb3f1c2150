import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import type {
  DeploymentHistoryItem,
  ObjectResult,
} from '@model-manager/plugin-model-manager-common';
import { useState } from 'react';
import { countChanges, FieldChangeLines, ObjectChangesList } from '../fleet';

/** A dry run's would-change diff against the live objects, object by object. */
export function WouldChange(props: { objects: ObjectResult[]; after: string }) {
  return (
    <>
      {props.objects.map(o => (
        <div key={`${o.kind}/${o.name}`}>
          <Typography variant="subtitle2">
            {o.kind} {o.name}:{' '}
            {o.action === 'failed'
              ? `failed: ${o.message ?? o.reason ?? 'see the log'}`
              : o.changes === undefined
              ? 'would be created'
              : o.changes.length === 0
              ? 'unchanged'
              : `${o.changes.length} field${o.changes.length === 1 ? '' : 's'}`}
          </Typography>
          {o.changes && (
            <FieldChangeLines
              fields={o.changes}
              labels={{ from: 'live', to: props.after }}
            />
          )}
        </div>
      ))}
    </>
  );
}

/** What changed fields to show for a row, and the button that opens them. */
function summary(
  r: DeploymentHistoryItem,
): { label: string; body: JSX.Element } | undefined {
  if (r.action === 'dry-run') {
    const fields = r.results.reduce(
      (n, o) => n + (o.changes === undefined ? 1 : o.changes.length),
      0,
    );
    return {
      label: `would change ${fields}`,
      body: <WouldChange objects={r.results} after="would be" />,
    };
  }
  const c = r.changesFromPrevious;
  if (!c) return undefined;
  const label =
    c.previousRevision === undefined
      ? `first at ${r.cluster}/${r.namespace}`
      : `${countChanges(c.objects)} change(s) since rev ${c.previousRevision}`;
  const from =
    c.previousRevision === undefined ? 'before' : `rev ${c.previousRevision}`;
  return {
    label,
    body: (
      <ObjectChangesList
        objects={c.objects}
        labels={{
          from,
          to: r.revision === undefined ? 'this' : `rev ${r.revision}`,
        }}
      />
    ),
  };
}

/**
 * A row's changes compared with the previous revision at the same cluster and namespace (or, for
 * a dry run, what it would change on the live objects), opened on click.
 */
export function ChangesCell(props: { row: DeploymentHistoryItem }) {
  const [open, setOpen] = useState(false);
  const s = summary(props.row);
  if (!s) return <>—</>;
  return (
    <>
      <Button size="small" onClick={() => setOpen(!open)} aria-expanded={open}>
        {s.label}
      </Button>
      {open && <div data-testid={`changes-${props.row.id}`}>{s.body}</div>}
    </>
  );
}
