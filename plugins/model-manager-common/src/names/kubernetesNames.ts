/*
 * Kubernetes' own name and label rules, as kube-apiserver checks them
 * (https://github.com/kubernetes/kubernetes, staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go):
 *
 *   dns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"; DNS1123LabelMaxLength = 63  (IsDNS1123Label)
 *   qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
 *   labelValueFmt = "(" + qualifiedNameFmt + ")?"; LabelValueMaxLength = 63         (IsValidLabelValue)
 *
 * A namespace name is a DNS-1123 label (ValidateNamespaceName = ValidateNameFunc(IsDNS1123Label)).
 * Every check of these rules in model-manager calls the functions below.
 */

/** The longest DNS-1123 label and the longest label value. */
export const DNS1123_LABEL_MAX_LENGTH = 63;
export const LABEL_VALUE_MAX_LENGTH = 63;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * What is wrong with a DNS-1123 label (a namespace, a PVC or Gateway name), in words, or
 * undefined when it is one. `what` names the value in the message, e.g. `namespace 'Models'`.
 */
export function dns1123LabelProblem(
  value: string,
  what = `'${value}'`,
): string | undefined {
  if (value.length === 0)
    return `${what} is empty; a DNS-1123 label is required`;
  if (value.length > DNS1123_LABEL_MAX_LENGTH)
    return `${what} has ${value.length} characters; a DNS-1123 label has at most ${DNS1123_LABEL_MAX_LENGTH}`;
  if (!DNS1123_LABEL.test(value))
    return `${what} is not a DNS-1123 label: lowercase letters, digits and -, starting and ending with a letter or digit (e.g. models, team-a)`;
  return undefined;
}

/** True when `value` is a DNS-1123 label. */
export function isDns1123Label(value: string): boolean {
  return dns1123LabelProblem(value) === undefined;
}

/** What is wrong with a namespace name, or undefined when Kubernetes accepts it. */
export function namespaceProblem(namespace: string): string | undefined {
  return dns1123LabelProblem(namespace, `namespace '${namespace}'`);
}

/** True when Kubernetes accepts the namespace name. */
export function isNamespaceName(namespace: string): boolean {
  return namespaceProblem(namespace) === undefined;
}

/**
 * What is wrong with a label value (the server version, category, runtime a model's objects are
 * labelled with), or undefined when Kubernetes accepts it. `what` names it in the message.
 */
export function labelValueProblem(
  value: string,
  what = `'${value}'`,
): string | undefined {
  if (value.length > LABEL_VALUE_MAX_LENGTH)
    return `${what} has ${value.length} characters, but it becomes a Kubernetes label value, which has at most ${LABEL_VALUE_MAX_LENGTH}`;
  if (!LABEL_VALUE.test(value))
    return `${what} becomes a Kubernetes label value, which holds only letters, digits, -, _ and ., starting and ending with a letter or digit (e.g. 0.24.0, 0.24.0-cpu)`;
  return undefined;
}
