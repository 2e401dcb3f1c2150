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
import { useApi } from '@backstage/core-plugin-api';
import { useEffect, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef } from '../../api';
import {
  modelArgProblems,
  otherRuntimeOf,
  rememberRuntimeOf,
} from './modelArgs';
import { modelNameOf } from './ServerVersionPicker';
import { argProblems, rowsToFix } from './validation';

/**
 * List editor for extra engine flags (one `--flag=value` per item), checked as the engine checks
 * them: what is wrong with a flag is said in words beside it, once (the template sets
 * `ui:hideError` so the form does not repeat it under the field). Flags belong to an engine and
 * a model: the chosen model checks them beside each row (a MoE-only flag on a dense model says
 * who can change that), and flags typed for a model of another runtime are cleared when the
 * model changes, saying so beside the field.
 */
export function ArgsEditor(
  props: FieldExtensionComponentProps<string[] | undefined>,
) {
  const { formData, onChange, schema, formContext } = props;
  const args = formData ?? [];
  const update = (next: string[]) => onChange(next.length ? next : undefined);
  const model = modelNameOf((formContext as any)?.formData?.model);
  const api = useApi(modelManagerApiRef);
  const summary = useAsync(
    async () => (model ? api.getModel(model) : undefined),
    [api, model],
  );
  const runtime = summary.loading ? undefined : summary.value?.runtime;
  const [cleared, setCleared] = useState<string>();
  const key = JSON.stringify(args);
  // Runs after every render, not only when the flags change: other fields of the step clear
  // their own values when the model changes (the version picker, the namespace picker), and
  // rjsf's ObjectField builds each field's change from the form data it last rendered
  // ({...formData, [name]: value}, @rjsf/core ObjectField.onPropertyChange), so a change made in
  // the same commit as ours writes the old flags back. Seen in the browser: the note said
  // "Cleared" and the row stayed. Clearing again while the flags shown are another engine's ends
  // that; it stops once they are gone (no dependency list on purpose: the written-back flags can
  // be the very array rendered before, so no dependency would change).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!runtime || !model) return;
    const was = otherRuntimeOf(args, runtime);
    if (was) {
      setCleared(
        `Cleared ${args.join(
          ' ',
        )}: typed for a ${was} model, and ${model} runs on ${runtime}, whose server does not read ${was}'s flags.`,
      );
      onChange(undefined);
    } else rememberRuntimeOf(args, runtime);
  });
  const checked = useAsync(
    async () =>
      model && args.length
        ? modelArgProblems(api, model, args, summary.value?.owner)
        : [],
    [api, model, key, summary.value?.owner],
  );
  // An empty row just added is not an error yet; once the step was tried it says so too.
  const tried = (props.rawErrors ?? []).length > 0;
  const problems = argProblems(args).map((p, i) =>
    args[i] === '' && !tried ? undefined : p ?? checked.value?.[i],
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
      {cleared && (
        <FormHelperText data-testid="args-cleared">{cleared}</FormHelperText>
      )}
      <Button
        size="small"
        onClick={() => {
          setCleared(undefined);
          onChange([...args, '']);
        }}
      >
        Add flag
      </Button>
      {schema.description && (
        <FormHelperText>{schema.description}</FormHelperText>
      )}
    </div>
  );
}

/**
 * Blocks the step while a flag is wrong, as the engine checks it or as the chosen model refuses it
 * (asked of the backend, like the field); the list at the top names the field, the row says why.
 */
export const argsEditorValidation: CustomFieldValidator<
  string[] | undefined
> = async (value, validation, context) => {
  const args = value ?? [];
  const local = argProblems(args);
  const model = modelNameOf((context as any)?.formData?.model);
  const api = context?.apiHolder?.get(modelManagerApiRef);
  const remote =
    model && api && args.length ? await modelArgProblems(api, model, args) : [];
  const wrong = local.filter((p, i) => p ?? remote[i]).length;
  if (wrong) validation.addError(rowsToFix(wrong, 'flag'));
};
