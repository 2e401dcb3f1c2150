/**
 * A deploy request may reference a Secret but never carry a secret's value: requests are kept in
 * the deployment history, named in audit events and echoed by dry runs and diffs, so a token
 * given as a plain value would be stored and shown. These checks run before anything else looks
 * at a request (validateOverrides), and their messages never repeat the value.
 */

/**
 * Env names that hold credentials: a `TOKEN`, `SECRET`, `PASSWORD`, `API_KEY`, `ACCESS_KEY`,
 * `PRIVATE_KEY`, `CREDENTIAL(S)` or `AUTH` word (`HF_TOKEN`, `VLLM_API_KEY`,
 * `AWS_SECRET_ACCESS_KEY`), not words that merely contain one (`TOKENIZERS_PARALLELISM`).
 */
const CREDENTIAL_NAME =
  /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)(_|$)/i;

/**
 * Flags that take a credential: the last word of the flag's name is one (vLLM's `--hf-token` and
 * `--api-key`, `--ssl-keyfile-password`), not a name that merely contains one: vLLM's
 * `--max-num-batched-tokens=4096` and `--tokenizer=org/tok` are tuning, and refusing them as
 * credentials sent the user to a Secret for a number.
 */
const CREDENTIAL_FLAG =
  /^--?(?:[\w.-]*[-_.])?(token|api[-_]?key|password|passwd|secret|credentials?|access[-_]?key|private[-_]?key)=/i;

/**
 * Values shaped like well-known credentials: Hugging Face (`hf_`), OpenAI-style (`sk-`), GitHub
 * (`ghp_` ...), GitLab (`glpat-`), Slack (`xox?-`), AWS access key ids (`AKIA`), and JWTs.
 */
const CREDENTIAL_VALUE =
  /(^|[=\s])(hf_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,})/;

/** How every refusal of a secret's value begins. */
export const SECRET_VALUE_REFUSAL =
  "a request may reference a Secret but never carry a secret's value";

/** Whether an env name names a credential (`HF_TOKEN`, `VLLM_API_KEY`; not `TOKENIZERS_PARALLELISM`). */
export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/** Whether a value is shaped like a well-known credential (a Hugging Face or OpenAI token, a JWT...). */
export function looksLikeCredential(value: string): boolean {
  return CREDENTIAL_VALUE.test(value);
}

/**
 * Why a plain env value would carry a secret's (`HF_TOKEN names a credential`, `its value looks
 * like a credential`), or undefined when it may be sent as it is. The request check and the
 * Deploy form each say it with their own fix.
 */
export function credentialValueReason(
  name: string,
  value: string,
): string | undefined {
  if (isCredentialName(name)) return `${name} names a credential`;
  if (looksLikeCredential(value)) return 'its value looks like a credential';
  return undefined;
}

/** Why a request's plain env value is refused, or undefined when it may be sent as it is. */
export function envValueRefusal(
  name: string,
  value: string,
): string | undefined {
  const why = credentialValueReason(name, value);
  if (!why) return undefined;
  return `${SECRET_VALUE_REFUSAL} (${why}); the value was refused and not stored. Create a Secret in the target namespace (kubectl create secret generic <secret> --from-literal=<key>=...) and reference it: --env-secret ${name}=<secret>/<key> (CLI), envSecret=${name}=<secret>/<key> (query), or env: { ${name}: { secretKeyRef: { name: <secret>, key: <key> } } } (request body)`;
}

/** Why a request's arg is refused as carrying a credential, or undefined. */
export function argRefusal(arg: string): string | undefined {
  if (!CREDENTIAL_FLAG.test(arg) && !looksLikeCredential(arg)) return undefined;
  return `${SECRET_VALUE_REFUSAL} (this arg passes a credential); the arg was refused and not stored. Put the credential in a Secret and pass it as env instead, e.g. --env-secret HF_TOKEN=<secret>/<key> for Hugging Face`;
}
