import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import type { CustomFieldValidator } from '@backstage/plugin-scaffolder-react';
import Button from '@material-ui/core/Button';
import FormHelperText from '@material-ui/core/FormHelperText';
import IconButton from '@material-ui/core/IconButton';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import DeleteIcon from '@material-ui/icons/Delete';
import { useState } from 'react';
import { envRowProblems, rowsToFix } from './validation';

type Env = Record<string, string>;

/**
 * The env the rows stand for. A blank row (no name, no value) is nothing yet; a row with a value
 * but no name is kept under the empty name, so validation says so instead of dropping it.
 */
function envOf(rows: Array<[string, string]>): Env {
  return Object.fromEntries(rows.filter(([k, v]) => k !== '' || v !== ''));
}

/**
 * Key/value editor for extra env vars, checked as the engine checks them: what is wrong with a
 * row is said in words beside its name or value, once (the template sets `ui:hideError` so the
 * form does not repeat it under the field).
 */
export function EnvEditor(
  props: FieldExtensionComponentProps<Env | undefined>,
) {
  const { formData, onChange, schema } = props;
  const [rows, setRows] = useState<Array<[string, string]>>(() =>
    Object.entries(formData ?? {}),
  );
  const update = (next: Array<[string, string]>) => {
    setRows(next);
    const env = envOf(next);
    onChange(Object.keys(env).length ? env : undefined);
  };
  const problems = envRowProblems(rows);
  const id = props.idSchema?.$id ?? 'env';
  return (
    <div>
      <Typography variant="subtitle2">{schema.title ?? 'Extra env'}</Typography>
      {rows.map(([key, value], i) => (
        <div key={i} style={{ display: 'flex', gap: 8, alignItems: 'start' }}>
          <TextField
            id={`${id}_${i}_name`}
            label="Name"
            value={key}
            error={!!problems[i].name}
            helperText={problems[i].name ?? problems[i].note}
            inputProps={{ 'data-testid': `env-name-${i}` }}
            onChange={e =>
              update(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))
            }
          />
          <TextField
            id={`${id}_${i}_value`}
            label="Value"
            value={value}
            fullWidth
            error={!!problems[i].value}
            helperText={problems[i].value}
            inputProps={{ 'data-testid': `env-value-${i}` }}
            onChange={e =>
              update(rows.map((r, j) => (j === i ? [r[0], e.target.value] : r)))
            }
          />
          <IconButton
            aria-label={`remove ${key || 'row'}`}
            onClick={() => update(rows.filter((_, j) => j !== i))}
          >
            <DeleteIcon />
          </IconButton>
        </div>
      ))}
      <Button size="small" onClick={() => setRows([...rows, ['', '']])}>
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
  const wrong = envRowProblems(Object.entries(value ?? {})).filter(
    p => p.name || p.value,
  ).length;
  if (wrong) validation.addError(rowsToFix(wrong, 'variable'));
};
