import type { EnvValue } from '@model-manager/plugin-model-manager-common';
import type {
  CustomFieldValidator,
  FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import Button from '@material-ui/core/Button';
import FormHelperText from '@material-ui/core/FormHelperText';
import IconButton from '@material-ui/core/IconButton';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import DeleteIcon from '@material-ui/icons/Delete';
import { useState } from 'react';
import {
  envRowProblems,
  envRowsOf,
  envValueOf,
  isBlankRow,
  rowHasProblem,
  rowsToFix,
  type EnvRow,
} from './validation';

/** The form's env: `NAME: value`, or `NAME: { secretKeyRef: { name, key } }` for a Secret's key. */
type Env = Record<string, EnvValue>;

/**
 * The env the rows stand for. A blank row is nothing yet; a row with a value but no name is kept
 * under the empty name, so validation says so instead of dropping it.
 */
function envOf(rows: EnvRow[]): Env {
  return Object.fromEntries(
    rows.filter(r => !isBlankRow(r)).map(r => [r.name, envValueOf(r)]),
  );
}

const BLANK: EnvRow = {
  name: '',
  source: 'value',
  value: '',
  secret: '',
  key: '',
};

/**
 * Key/value editor for extra env vars, checked as the engine checks them. A variable is typed in,
 * or read from a key of a Secret in the target namespace ("From a Secret", rendered as
 * `valueFrom.secretKeyRef`): a deploy never carries a secret's value, so a credential goes that
 * way. What is wrong with a row is said in words beside the field it is about, once (the template
 * sets `ui:hideError` so the form does not repeat it under the field).
 */
export function EnvEditor(
  props: FieldExtensionComponentProps<Env | undefined>,
) {
  const { formData, onChange, schema } = props;
  const [rows, setRows] = useState<EnvRow[]>(() => envRowsOf(formData));
  const update = (next: EnvRow[]) => {
    setRows(next);
    const env = envOf(next);
    onChange(Object.keys(env).length ? env : undefined);
  };
  const edit = (i: number, change: Partial<EnvRow>) =>
    update(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const problems = envRowProblems(rows);
  const id = props.idSchema?.$id ?? 'env';
  return (
    <div>
      <Typography variant="subtitle2">{schema.title ?? 'Extra env'}</Typography>
      {rows.map((row, i) => (
        <div key={i} style={{ display: 'flex', gap: 8, alignItems: 'start' }}>
          <TextField
            id={`${id}_${i}_name`}
            label="Name"
            value={row.name}
            error={!!problems[i].name}
            helperText={problems[i].name ?? problems[i].note}
            inputProps={{ 'data-testid': `env-name-${i}` }}
            onChange={e => edit(i, { name: e.target.value })}
          />
          <TextField
            id={`${id}_${i}_source`}
            select
            label="Source"
            value={row.source}
            SelectProps={{ native: true }}
            inputProps={{ 'data-testid': `env-source-${i}` }}
            onChange={e =>
              edit(i, { source: e.target.value as EnvRow['source'] })
            }
          >
            <option value="value">Value</option>
            <option value="secret">From a Secret</option>
          </TextField>
          {row.source === 'value' ? (
            <TextField
              id={`${id}_${i}_value`}
              label="Value"
              value={row.value}
              fullWidth
              error={!!problems[i].value}
              helperText={problems[i].value}
              inputProps={{ 'data-testid': `env-value-${i}` }}
              onChange={e => edit(i, { value: e.target.value })}
            />
          ) : (
            <>
              <TextField
                id={`${id}_${i}_secret`}
                label="Secret"
                value={row.secret}
                error={!!problems[i].secret}
                helperText={
                  problems[i].secret ?? 'A Secret in the namespace deployed to'
                }
                inputProps={{ 'data-testid': `env-secret-name-${i}` }}
                onChange={e => edit(i, { secret: e.target.value })}
              />
              <TextField
                id={`${id}_${i}_key`}
                label="Key"
                value={row.key}
                error={!!problems[i].key}
                helperText={problems[i].key ?? 'Its key holding the value'}
                inputProps={{ 'data-testid': `env-secret-key-${i}` }}
                onChange={e => edit(i, { key: e.target.value })}
              />
            </>
          )}
          <IconButton
            aria-label={`remove ${row.name || 'row'}`}
            onClick={() => update(rows.filter((_, j) => j !== i))}
          >
            <DeleteIcon />
          </IconButton>
        </div>
      ))}
      <Button size="small" onClick={() => setRows([...rows, BLANK])}>
        Add variable
      </Button>
      {schema.description && (
        <FormHelperText>{schema.description}</FormHelperText>
      )}
    </div>
  );
}

/** Blocks the step while a variable is wrong; the list at the top names the field, the row says why. */
export const envEditorValidation: CustomFieldValidator<Env | undefined> = (
  value,
  validation,
) => {
  const wrong = envRowProblems(envRowsOf(value)).filter(rowHasProblem).length;
  if (wrong) validation.addError(rowsToFix(wrong, 'variable'));
};
