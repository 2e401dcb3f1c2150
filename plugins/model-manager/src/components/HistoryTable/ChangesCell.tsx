import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import type {
  DeploymentHistoryItem,
  ObjectResult,
} from '@model-manager/plugin-model-manager-common';
import { useState } from 'react';
import { countChanges, FieldChangeLines, ObjectChangesList } from '../fleet';

/**
 * What a dry run says of one object, in words: a shared object that is there already
 * (`exists`: the ClusterServingRuntime, the weights claim) is left as it is, never "created"; an
 * object whose change touches an immutable field is deleted and created again (`replaced`).
 */
export function wouldChangeText(o: ObjectResult): string {
  switch (o.action) {
    case 'failed':
      return `failed: ${o.message ?? o.reason ?? 'see the log'}`;
    case 'exists':
      return 'exists (shared with other models): left as it is';
    case 'replaced':
      return `would be deleted and created again${
        o.message ? ` (${o.message})` : ''
      }`;
    case 'created':
      return 'would be created';
    case 'unchanged':
      return 'unchanged';
    default:
      if (o.changes === undefined) return 'would be created';
      return o.changes.length === 0
        ? 'unchanged'
        : `${o.changes.length} field${o.changes.length === 1 ? '' : 's'}`;
  }
}

/** How many changes a dry run counts for one object: none for one left as it is. */
export function wouldChangeCount(o: ObjectResult): number {
  if (o.action === 'exists' || o.action === 'unchanged') return 0;
  return o.changes === undefined ? 1 : o.changes.length;
}

/** A dry run's would-change diff against the live objects, object by object. */
export function WouldChange(props: { objects: ObjectResult[]; after: string }) {
  return (
    <>
      {props.objects.map(o => (
        <div key={`${o.kind}/${o.name}`}>
          <Typography variant="subtitle2">
            {o.kind} {o.name}: {wouldChangeText(o)}
          </Typography>
          {o.changes && o.action !== 'exists' && (
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
    const fields = r.results.reduce((n, o) => n + wouldChangeCount(o), 0);
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
