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
import { argProblems, rowsToFix } from './validation';

/**
 * List editor for extra engine flags (one `--flag=value` per item), checked as the engine checks
 * them: what is wrong with a flag is said in words beside it, once (the template sets
 * `ui:hideError` so the form does not repeat it under the field).
 */
export function ArgsEditor(
  props: FieldExtensionComponentProps<string[] | undefined>,
) {
  const { formData, onChange, schema } = props;
  const args = formData ?? [];
  const update = (next: string[]) => onChange(next.length ? next : undefined);
  // An empty row just added is not an error yet; once the step was tried it says so too.
  const tried = (props.rawErrors ?? []).length > 0;
  const problems = argProblems(args).map((p, i) =>
    args[i] === '' && !tried ? undefined : p,
  );
  return (
    <div>
      <Typography variant="subtitle2">
        {schema.title ?? 'Extra args'}
      </Typography>
      {args.map((arg, i) => (
        <div key={i} style={{ display: 'flex', gap: 8, alignItems: 'start' }}>
          <TextField
            id={`${props.idSchema?.$id ?? 'args'}_${i}`}
            value={arg}
            fullWidth
            placeholder="--max-model-len=8192"
            error={!!problems[i]}
            helperText={problems[i]}
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
      {schema.description && (
        <FormHelperText>{schema.description}</FormHelperText>
      )}
    </div>
  );
}

/** Blocks the step while a flag is wrong; the list at the top names the field, the row says why. */
export const argsEditorValidation: CustomFieldValidator<
  string[] | undefined
> = (value, validation) => {
  const wrong = argProblems(value ?? []).filter(Boolean).length;
  if (wrong) validation.addError(rowsToFix(wrong, 'flag'));
};
