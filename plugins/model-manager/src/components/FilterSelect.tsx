import TextField from '@material-ui/core/TextField';

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
      InputLabelProps={{ shrink: true }}
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
