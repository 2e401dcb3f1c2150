import Typography from '@material-ui/core/Typography';
import type {
  FieldChange,
  ObjectChanges,
} from '@model-manager/plugin-model-manager-common';

/** A field value in one line: `(absent)` when the side does not have the field. */
export const formatValue = (v: unknown) =>
  v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v);

/**
 * How to read a change. Every diff of the backend names its newer side `rendered` and its older
 * side `live`, except drift, where `rendered` is what model-manager applied and `live` what
 * someone changed it to.
 */
export type ChangeLabels = {
  /** e.g. `applied`, `rev 2`, `live` */
  from: string;
  /** e.g. `live`, `now`, `this revision`, `after` */
  to: string;
  /** Drift: `from` is the `rendered` side, `to` the `live` side. */
  reversed?: boolean;
};

/** One line per changed field: `.path: from X → to Y`. */
export function FieldChangeLines(props: {
  fields: FieldChange[];
  labels: ChangeLabels;
}) {
  const { from, to, reversed } = props.labels;
  return (
    <>
      {props.fields.map(c => (
        <Typography key={c.path} variant="body2" component="div">
          <code>{c.path}</code>: {from}{' '}
          <code>{formatValue(reversed ? c.rendered : c.live)}</code> → {to}{' '}
          <code>{formatValue(reversed ? c.live : c.rendered)}</code>
        </Typography>
      ))}
    </>
  );
}

const objectWords: Record<ObjectChanges['change'], string> = {
  changed: 'changed',
  added: 'added',
  removed: 'removed',
};

/** The field-level changes of several objects, object by object. */
export function ObjectChangesList(props: {
  objects: ObjectChanges[];
  labels: ChangeLabels;
}) {
  if (props.objects.length === 0)
    return <Typography variant="body2">No changes.</Typography>;
  return (
    <>
      {props.objects.map(o => (
        <div key={`${o.kind}/${o.namespace ?? ''}/${o.name}`}>
          <Typography variant="subtitle2">
            {o.kind} {o.name}: {objectWords[o.change]}
            {o.change === 'changed'
              ? ` (${o.fields.length} field${o.fields.length === 1 ? '' : 's'})`
              : ''}
          </Typography>
          <FieldChangeLines fields={o.fields} labels={props.labels} />
        </div>
      ))}
    </>
  );
}

/** How many fields (or whole objects) differ. */
export const countChanges = (objects: ObjectChanges[]) =>
  objects.reduce(
    (n, o) => n + (o.change === 'changed' ? o.fields.length : 1),
    0,
  );
