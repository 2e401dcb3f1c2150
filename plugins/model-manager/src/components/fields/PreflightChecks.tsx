import { useApi } from '@backstage/core-plugin-api';
import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import FormHelperText from '@material-ui/core/FormHelperText';
import Typography from '@material-ui/core/Typography';
import type {
  PreflightCheck,
  PreflightStatus,
} from '@model-manager/plugin-model-manager-common';
import { useEffect } from 'react';
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

/**
 * The checks a deploy runs first, in one line for the Review step: which failed (a deploy with a
 * failed check is refused and applies nothing), else what could not be told, else that all pass.
 */
export function preflightSummary(checks: PreflightCheck[]): string {
  const failed = checks.filter(c => c.status === 'fail');
  if (failed.length > 0)
    return `${failed.length} of ${
      checks.length
    } checks fail, the deploy would be refused: ${failed
      .map(c => `${c.title} (${c.message})`)
      .join('; ')}`;
  const open = checks.filter(
    c => c.status === 'warn' || c.status === 'unknown',
  );
  if (open.length > 0)
    return `no check fails; ${open
      .map(c => `${WORD[c.status].toLowerCase()}: ${c.title} (${c.message})`)
      .join('; ')}`;
  return `all ${checks.length} checks pass`;
}

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
  const { cluster, namespace, serverVersion, env, args } = form;
  const api = useApi(modelManagerApiRef);
  // The other fields say what is wrong with themselves; a deploy of them would be a 400, so they
  // are not checked against the cluster until they are right.
  const invalid =
    !!namespaceProblem(namespace) ||
    envProblems(env).length > 0 ||
    argsProblems(args).length > 0;
  const key = JSON.stringify([
    model,
    cluster,
    namespace,
    serverVersion,
    env,
    args,
    invalid,
  ]);
  const state = useAsync(async () => {
    if (!model || !cluster || !namespace || invalid || !api.preflight)
      return undefined;
    return api.preflight(
      model,
      { cluster, namespace },
      {
        ...(serverVersion ? { serverVersion } : {}),
        ...(env && Object.keys(env).length ? { env } : {}),
        ...(args?.length ? { args } : {}),
      },
    );
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
    ? preflightSummary(state.value.checks)
    : undefined;
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
      </FormHelperText>
    );
  return (
    <div data-testid="preflight-checks">
      <Typography variant="subtitle2">
        {title} of {model} on {cluster}/{namespace}
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
