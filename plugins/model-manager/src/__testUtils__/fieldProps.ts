/**
 * The props the scaffolder form gives a custom field, here `root_<id>` titled `title`; `extra` sets
 * what a test is about (formData, onChange, formContext, a fuller schema).
 */
export function fieldProps(
  id: string,
  title: string,
  extra: Record<string, unknown> = {},
): any {
  return {
    schema: { title },
    idSchema: { $id: `root_${id}` },
    uiSchema: {},
    rawErrors: [],
    onChange: jest.fn(),
    ...extra,
  };
}

/** The form context of a field on a form whose Model step picked `model`. */
export const onModel = (model: string) => ({
  formContext: { formData: { model: `component:default/${model}` } },
});
