/**
 * The Deploy model template (scaffolder-templates/deploy-model) with the model already picked: the
 * scaffolder fills the form from the `formData` query parameter.
 */
export function deployModelUrl(modelRef: string): string {
  return `/create/templates/default/deploy-model?formData=${encodeURIComponent(
    JSON.stringify({ model: modelRef }),
  )}`;
}
