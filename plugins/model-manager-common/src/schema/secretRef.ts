import { z } from 'zod';

/**
 * A Secret's name: a DNS-1123 subdomain, as kube-apiserver validates object names
 * (k8s.io/apimachinery/pkg/util/validation IsDNS1123Subdomain: at most 253 characters).
 */
export const SECRET_NAME_PATTERN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const MAX_SECRET_NAME_LENGTH = 253;
/** A key of a Secret's data, as kube-apiserver validates it (validation.IsConfigMapKey). */
export const SECRET_KEY_PATTERN = /^[-._a-zA-Z0-9]+$/;

/**
 * An env value read from a Secret: the variable is rendered as `valueFrom.secretKeyRef` on the
 * container, so the value itself never passes through model-manager. In models.yaml and in a
 * request it is written `NAME: { secretKeyRef: { name: hf-token, key: token } }`.
 */
export interface SecretKeyRef {
  secretKeyRef: { name: string; key: string };
}

/** An env value after resolution: text, or a reference to a Secret's key. */
export type EnvValue = string | SecretKeyRef;

export function isSecretKeyRef(value: unknown): value is SecretKeyRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    'secretKeyRef' in value
  );
}

/** `secret hf-token/token`: how a reference reads in explanations and tables (never a value). */
export function formatEnvValue(value: EnvValue): string {
  return isSecretKeyRef(value)
    ? `secret ${value.secretKeyRef.name}/${value.secretKeyRef.key}`
    : value;
}

export const SECRET_REF_EXAMPLE =
  'NAME: { secretKeyRef: { name: hf-token, key: token } }';

/** Why `name` is not a Secret name, or undefined when it is one. */
export function secretNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0)
    return 'must be the name of a Secret in the namespace the model is deployed to, e.g. hf-token';
  if (name.length > MAX_SECRET_NAME_LENGTH || !SECRET_NAME_PATTERN.test(name))
    return `'${name.slice(
      0,
      60,
    )}' is not a valid Secret name: a DNS-1123 subdomain (lowercase letters, digits, - and ., starting and ending with a letter or digit, at most ${MAX_SECRET_NAME_LENGTH} characters), e.g. hf-token`;
  return undefined;
}

/** Why `key` is not a Secret data key, or undefined when it is one. */
export function secretKeyProblem(key: unknown): string | undefined {
  if (key === undefined)
    return 'secretKeyRef needs key: the key within the Secret that holds the value, e.g. key: token (kubectl create secret generic hf-token --from-literal=token=...)';
  if (
    typeof key !== 'string' ||
    key.length === 0 ||
    key.length > MAX_SECRET_NAME_LENGTH ||
    !SECRET_KEY_PATTERN.test(key)
  )
    return 'key must be a key of the Secret: letters, digits, -, _ and . (at most 253), e.g. token';
  return undefined;
}

/**
 * Problems of an object given as an env value, each with the path below the value and the fix.
 * Shared by the models.yaml schema and the request check, so both say the same thing.
 */
export function secretRefProblems(
  value: object,
): Array<{ path: string[]; message: string; atKey?: boolean }> {
  const problems: Array<{ path: string[]; message: string; atKey?: boolean }> =
    [];
  if ('valueFrom' in value) {
    problems.push({
      path: ['valueFrom'],
      atKey: true,
      message: `valueFrom does not go here: an env map takes the reference itself as the variable's value, ${SECRET_REF_EXAMPLE} (model-manager renders it as valueFrom.secretKeyRef)`,
    });
    return problems;
  }
  const extra = Object.keys(value).filter(k => k !== 'secretKeyRef');
  if (extra.length > 0 || !('secretKeyRef' in value)) {
    problems.push({
      path: extra.length > 0 ? [extra[0]] : [],
      message: `an env value must be a string, null (removes an inherited variable) or a Secret reference, ${SECRET_REF_EXAMPLE}`,
    });
    return problems;
  }
  const ref = (value as { secretKeyRef: unknown }).secretKeyRef;
  if (typeof ref !== 'object' || ref === null || Array.isArray(ref)) {
    problems.push({
      path: ['secretKeyRef'],
      message: `secretKeyRef must be a map with the Secret's name and key, e.g. ${SECRET_REF_EXAMPLE}`,
    });
    return problems;
  }
  const r = ref as Record<string, unknown>;
  for (const k of Object.keys(r)) {
    if (k !== 'name' && k !== 'key')
      problems.push({
        path: ['secretKeyRef', k],
        atKey: true,
        message: `unknown key '${k}' in secretKeyRef; allowed here: name, key`,
      });
  }
  const nameProblem = secretNameProblem(r.name);
  if (nameProblem)
    problems.push({
      path: ['secretKeyRef', 'name'],
      message:
        r.name === undefined
          ? `secretKeyRef needs name: the Secret's name, e.g. name: hf-token`
          : nameProblem,
    });
  const keyProblem = secretKeyProblem(r.key);
  if (keyProblem)
    problems.push({ path: ['secretKeyRef', 'key'], message: keyProblem });
  return problems;
}

/**
 * One Secret name of an `image_pull_secrets` list. A pod spec's `{name: regcred}` (a
 * LocalObjectReference) is the natural thing to write: its message gives the plain form.
 */
const pullSecretName = z
  .string({
    invalid_type_error:
      'image_pull_secrets lists Secret names as plain strings, not {name: ...} as in a pod spec: write [regcred], not [{name: regcred}]',
  })
  .superRefine((name, ctx) => {
    const problem = secretNameProblem(name);
    if (problem)
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

/**
 * `image_pull_secrets: [registry-creds]`: Secrets (of type kubernetes.io/dockerconfigjson, in the
 * namespace the model is deployed to) the kubelet uses to pull the images of the model's pods.
 */
export const imagePullSecretsSchema = z.array(pullSecretName, {
  invalid_type_error:
    'image_pull_secrets must be a list of Secret names, e.g. [registry-creds]',
});
