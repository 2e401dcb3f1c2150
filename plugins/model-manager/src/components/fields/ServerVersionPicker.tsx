import { useApi } from '@backstage/core-plugin-api';
import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import FormControl from '@material-ui/core/FormControl';
import FormHelperText from '@material-ui/core/FormHelperText';
import InputLabel from '@material-ui/core/InputLabel';
import Select from '@material-ui/core/Select';
import { useEffect, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef } from '../../api';
import { SelectField } from './SelectField';

/** `component:default/qwen` or `qwen` -> `qwen`. */
export function modelNameOf(ref: unknown): string | undefined {
  if (typeof ref !== 'string' || !ref) return undefined;
  const slash = ref.lastIndexOf('/');
  const colon = ref.indexOf(':');
  return ref.slice(Math.max(slash, colon) + 1) || undefined;
}

/**
 * Lists the chosen model's runtime versions (default marked, the model's pin noted). Disabled,
 * with the reason, when the runtime is flat (OpenVINO): a server version does not apply there.
 * A version picked for another model is cleared when it does not apply to the chosen one (a flat
 * runtime, or a version its runtime does not list), so what is shown is what is submitted.
 *
 * With `ui:options.runtimeField` (the rollout form) it lists the versions of the runtime picked in
 * that field instead, and empty means what models.yaml resolves now for each model.
 */
export function ServerVersionPicker(
  props: FieldExtensionComponentProps<
    string | undefined,
    { modelField?: string; runtimeField?: string }
  >,
) {
  const { formData, onChange, schema, formContext, idSchema, rawErrors } =
    props;
  const options = props.uiSchema?.['ui:options'];
  const runtimeField = options?.runtimeField;
  const modelField = options?.modelField ?? 'model';
  const formValues = (formContext as any)?.formData ?? {};
  const model = runtimeField ? undefined : modelNameOf(formValues[modelField]);
  const runtimeName = runtimeField
    ? (formValues[runtimeField] as string | undefined) || undefined
    : undefined;
  const subject = runtimeField ? runtimeName : model;
  const api = useApi(modelManagerApiRef);
  const state = useAsync(async () => {
    if (runtimeName)
      return { summary: undefined, runtime: await api.getRuntime(runtimeName) };
    if (!model) return undefined;
    const summary = await api.getModel(model);
    const runtime = await api.getRuntime(summary.runtime);
    return { summary, runtime };
  }, [api, model, runtimeName]);

  // While another model loads, the previous model's runtime must not decide anything.
  const runtime = state.loading ? undefined : state.value?.runtime;
  const flat = runtime !== undefined && !runtime.versioned;
  const listed =
    !!formData && !!runtime?.versions.some(v => v.version === formData);
  const stale = !!formData && runtime !== undefined && !listed;
  // Said beside the field, so a version that disappears is not a surprise on Review.
  const [cleared, setCleared] = useState<string>();
  useEffect(() => {
    if (!stale || !runtime) return;
    let why: string;
    if (runtimeField)
      why = runtime.versioned
        ? `runtime ${runtime.name} does not list it`
        : `${runtime.name} is a flat runtime without versions`;
    else
      why = runtime.versioned
        ? `${model}'s runtime ${runtime.name} does not list it`
        : `${model} runs on ${runtime.name}, a flat runtime without versions`;
    setCleared(`Cleared ${formData}: ${why}.`);
    onChange(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stale, onChange]);

  const title = schema.title ?? 'Server version';
  if (!subject) {
    return (
      <FormControl fullWidth disabled>
        <InputLabel>{title}</InputLabel>
        <Select value="" />
        <FormHelperText>
          {runtimeField ? 'Pick a runtime first.' : 'Pick a model first.'}
        </FormHelperText>
      </FormControl>
    );
  }
  if (state.error) {
    return (
      <FormHelperText error>
        Could not load the versions of {subject}: {state.error.message}
      </FormHelperText>
    );
  }
  const pin = state.value?.summary?.pinnedVersion;
  const defaultText = runtime?.defaultVersion
    ? ` (${runtime.defaultVersion})`
    : '';
  let empty: string;
  if (runtimeField)
    empty = `what models.yaml resolves now: each model's pin, else the default${defaultText}`;
  else if (pin) empty = `the model's pin (${pin})`;
  else empty = `the runtime default${defaultText}`;
  let help: string;
  if (flat && runtimeField)
    help = `${
      runtime!.name
    } is a flat runtime: it has no versions; the rollout applies what models.yaml resolves now.`;
  else if (flat)
    help = `${
      runtime!.name
    } is a flat runtime: it has no versions, so a server version does not apply.`;
  else if (runtimeField)
    help =
      schema.description ??
      'Leave empty to apply what models.yaml resolves now, e.g. after moving default_version.';
  else help = 'Leave empty to use the model’s pin or the runtime default.';
  return (
    <SelectField
      id={idSchema.$id}
      title={title}
      testId="server-version-picker"
      value={(listed && formData) || ''}
      choices={(runtime?.versions ?? []).map(v => ({
        value: v.version,
        label: `${v.version}${v.default ? ' (default)' : ''}${
          v.version === pin ? ' (pinned by the model)' : ''
        } — ${v.image}`,
      }))}
      emptyLabel={empty}
      onChange={value => {
        setCleared(undefined);
        onChange(value);
      }}
      disabled={state.loading || flat}
      error={!!rawErrors?.length}
      margin="none"
      notes={
        cleared && (
          <FormHelperText data-testid="server-version-cleared">
            {cleared}
          </FormHelperText>
        )
      }
      help={help}
    />
  );
}
