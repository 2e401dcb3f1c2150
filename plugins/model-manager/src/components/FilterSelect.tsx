import TextField from '@material-ui/core/TextField';

/**
 * The label of a list page's filter fields, always shrunk above the field, in the page's text
 * colour: MUI's default grey label on the page's grey background is below the 4.5:1 contrast
 * WCAG 1.4.3 asks for (axe-core color-contrast).
 */
export const FILTER_LABEL_PROPS = {
  shrink: true,
  style: { color: 'inherit' },
} as const;

/**
 * One filter of a list page (Models, Deployments): a native select of the values present, with
 * "All" (the empty value) first.
 */
export function FilterSelect(props: {
  id: string;
  label: string;
  value: string | undefined;
  options: readonly string[];
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      id={props.id}
      select
      label={props.label}
      value={props.value ?? ''}
      onChange={e => props.onChange(e.target.value)}
      SelectProps={{ native: true }}
      InputLabelProps={FILTER_LABEL_PROPS}
      style={{ minWidth: 140 }}
    >
      <option value="">All</option>
      {props.options.map(v => (
        <option key={v} value={v}>
          {v}
        </option>
      ))}
    </TextField>
  );
}
