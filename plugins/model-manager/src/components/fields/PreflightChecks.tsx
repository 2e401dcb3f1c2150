import { useApi } from '@backstage/core-plugin-api';
import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import FormHelperText from '@material-ui/core/FormHelperText';
import Button from '@material-ui/core/Button';
import Typography from '@material-ui/core/Typography';
import type {
  PreflightCheck,
  PreflightStatus,
} from '@model-manager/plugin-model-manager-common';
import { useEffect, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef } from '../../api';
import { modelNameOf } from './ServerVersionPicker';
import { argsProblems, envProblems, namespaceProblem } from './validation';

const WORD: Record<PreflightStatus, string> = {
  pass: 'Pass',
  warn: 'Warning',
  fail: 'Fails',
  unknown: 'Unknown',
};

/** The deploy form's checkbox that applies despite a failed check (the action's `skipPreflight`). */
export const SKIP_PREFLIGHT_LABEL = 'Deploy even if a preflight check fails';

const REFUSAL = 'the deploy would be refused';
const REFUSED = new RegExp(`^\\d+ of \\d+ checks fail, ${REFUSAL}:`);

/**
 * The checks a deploy runs first, in one line for the Review step: which failed (a deploy with a
 * failed check is refused and applies nothing, unless `skip`: the form's "Deploy even if a
 * preflight check fails"), else what could not be told, else that all pass.
 */
export function preflightSummary(
  checks: PreflightCheck[],
  skip = false,
): string {
  const failed = checks.filter(c => c.status === 'fail');
  if (failed.length > 0)
    return `${failed.length} of ${checks.length} checks fail, ${
      skip
        ? `the deploy goes ahead ("${SKIP_PREFLIGHT_LABEL}" is ticked)`
        : REFUSAL
    }: ${failed.map(c => `${c.title} (${c.message})`).join('; ')}`;
  const open = checks.filter(
    c => c.status === 'warn' || c.status === 'unknown',
  );
  if (open.length > 0)
    return `no check fails; ${open
      .map(c => `${WORD[c.status].toLowerCase()}: ${c.title} (${c.message})`)
      .join('; ')}`;
  return `all ${checks.length} checks pass`;
}

/** The form's values preflight is asked about; undefined while they cannot be checked yet. */
function preflightQuery(form: Record<string, any>) {
  const model = modelNameOf(form.model);
  const { cluster, namespace, serverVersion, env, args } = form;
  // The other fields say what is wrong with themselves; a deploy of them would be a 400, so they
  // are not checked against the cluster until they are right.
  const invalid =
    !!namespaceProblem(namespace) ||
    envProblems(env).length > 0 ||
    argsProblems(args).length > 0;
  if (!model || !cluster || !namespace || invalid) return undefined;
  return [
    model,
    { cluster, namespace },
    {
      ...(serverVersion ? { serverVersion } : {}),
      ...(env && Object.keys(env).length ? { env } : {}),
      ...(args?.length ? { args } : {}),
    },
  ] as const;
}

/**
 * Blocks the step while the checks shown fail and "Deploy even if a preflight check fails" is not
 * ticked: that deploy (a dry run too) would be refused and apply nothing, so the form says so
 * before a task runs. It reads the field's value, the summary the field shows and the Review step
 * lists, so the three agree; after a fix made on the cluster, "Check again" asks anew. A check
 * still running or that could not be run does not block: the deploy runs the checks itself.
 */
export const preflightChecksValidation = (
  value: string | undefined,
  validation: { addError(message: string): void },
) => {
  if (value && REFUSED.test(value))
    validation.addError(
      `a preflight check fails, so the deploy (a dry run too) would be refused and nothing applied. Fix it as the check says and press Check again, or tick "${SKIP_PREFLIGHT_LABEL}"`,
    );
};

/**
 * Preflight for the deploy the form describes (model, cluster, namespace, server version, env,
 * args: the other fields' values): each check in words, with its fix. Its value is the one-line
 * summary the Review step shows, so a failing check is seen before anything is applied.
 */
export function PreflightChecks(
  props: FieldExtensionComponentProps<string | undefined>,
) {
  const { formData, onChange, schema, formContext } = props;
  const form = ((formContext as any)?.formData ?? {}) as Record<string, any>;
  const model = modelNameOf(form.model);
  const { cluster, namespace } = form;
  const skip = form.skipPreflight === true;
  const api = useApi(modelManagerApiRef);
  const query = preflightQuery(form);
  const invalid = !!model && !!cluster && !!namespace && !query;
  // "Check again" asks anew with the same values (after a fix made on the cluster).
  const [round, setRound] = useState(0);
  const key = JSON.stringify([query, round]);
  const state = useAsync(async () => {
    if (!query || !api.preflight) return undefined;
    return api.preflight(...query);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` holds every input
  }, [api, key]);
  // Never an empty value (the Review step would show a blank row): a check still running says so.
  const summary = invalid
    ? undefined
    : state.loading
    ? 'still checking; the deploy runs the checks itself and refuses a failed one'
    : state.error
    ? `not checked: ${state.error.message}`
    : state.value
    ? preflightSummary(state.value.checks, skip)
    : undefined;
  const again = (
    <Button
      size="small"
      color="primary"
      onClick={() => setRound(r => r + 1)}
      style={{ marginLeft: 8 }}
    >
      Check again
    </Button>
  );
  useEffect(() => {
    if (summary !== formData) onChange(summary);
  }, [summary, formData, onChange]);

  const title = schema.title ?? 'Preflight';
  if (!model || !cluster || !namespace)
    return (
      <FormHelperText>
        {title}: pick a model, a cluster and a namespace first.
      </FormHelperText>
    );
  if (invalid)
    return (
      <FormHelperText>
        {title}: checked once the fields above are right.
      </FormHelperText>
    );
  if (state.loading)
    return <FormHelperText>{title}: checking the target…</FormHelperText>;
  if (state.error)
    return (
      <FormHelperText error>
        {title}: could not check {cluster}/{namespace}: {state.error.message}
        {again}
      </FormHelperText>
    );
  return (
    <div data-testid="preflight-checks">
      <Typography variant="subtitle2">
        {title} of {model} on {cluster}/{namespace}
        {again}
      </Typography>
      <ul style={{ margin: 0, paddingLeft: 20 }}>
        {state.value?.checks.map(c => (
          <li key={c.id}>
            <Typography
              variant="body2"
              color={c.status === 'fail' ? 'error' : 'textPrimary'}
            >
              <strong>{WORD[c.status]}</strong>: {c.title}: {c.message}
              {c.fix && c.status !== 'pass' ? ` (fix: ${c.fix})` : ''}
            </Typography>
          </li>
        ))}
      </ul>
    </div>
  );
}
