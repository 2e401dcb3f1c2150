import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import type { CustomFieldValidator } from '@backstage/plugin-scaffolder-react';
import Button from '@material-ui/core/Button';
import FormHelperText from '@material-ui/core/FormHelperText';
import IconButton from '@material-ui/core/IconButton';
import TextField from '@material-ui/core/TextField';
import Typography from '@material-ui/core/Typography';
import DeleteIcon from '@material-ui/icons/Delete';
import { useState } from 'react';
import { envProblems } from './validation';

type Env = Record<string, string>;

/**
 * The env the rows stand for. A blank row (no name, no value) is nothing yet; a row with a value
 * but no name is kept under the empty name, so validation says so instead of dropping it.
 */
function envOf(rows: Array<[string, string]>): Env {
  return Object.fromEntries(rows.filter(([k, v]) => k !== '' || v !== ''));
}

/** Key/value editor for extra env vars, checked as the engine checks them. */
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
  const problems = envProblems(envOf(rows));
  return (
    <div>
      <Typography variant="subtitle2">{schema.title ?? 'Extra env'}</Typography>
      {rows.map(([key, value], i) => (
        <div key={i} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <TextField
            label="Name"
            value={key}
            inputProps={{ 'data-testid': `env-name-${i}` }}
            onChange={e =>
              update(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))
            }
          />
          <TextField
            label="Value"
            value={value}
            fullWidth
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
      {problems.map(p => (
        <FormHelperText key={p} error>
          {p}
        </FormHelperText>
      ))}
      {schema.description && (
        <FormHelperText>{schema.description}</FormHelperText>
      )}
    </div>
  );
}

export const envEditorValidation: CustomFieldValidator<Env | undefined> = (
  value,
  validation,
) => {
  for (const p of envProblems(value)) validation.addError(p);
};
