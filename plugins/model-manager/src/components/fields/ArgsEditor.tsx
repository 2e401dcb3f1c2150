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
import { argsProblems } from './validation';

/** List editor for extra engine flags (one `--flag=value` per item), checked as the engine checks them. */
export function ArgsEditor(
  props: FieldExtensionComponentProps<string[] | undefined>,
) {
  const { formData, onChange, schema } = props;
  const args = formData ?? [];
  const update = (next: string[]) => onChange(next.length ? next : undefined);
  const problems = argsProblems(args.filter(a => a !== ''));
  return (
    <div>
      <Typography variant="subtitle2">
        {schema.title ?? 'Extra args'}
      </Typography>
      {args.map((arg, i) => (
        <div key={i} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          <TextField
            value={arg}
            fullWidth
            placeholder="--max-model-len=8192"
            inputProps={{ 'data-testid': `arg-${i}` }}
            onChange={e =>
              update(args.map((a, j) => (j === i ? e.target.value : a)))
            }
          />
          <IconButton
            aria-label={`remove ${arg || 'arg'}`}
            onClick={() => update(args.filter((_, j) => j !== i))}
          >
            <DeleteIcon />
          </IconButton>
        </div>
      ))}
      <Button size="small" onClick={() => onChange([...args, ''])}>
        Add flag
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

export const argsEditorValidation: CustomFieldValidator<
  string[] | undefined
> = (value, validation) => {
  for (const p of argsProblems(value)) validation.addError(p);
};
