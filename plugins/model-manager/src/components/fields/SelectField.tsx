import type { ReactNode } from 'react';
import FormControl from '@material-ui/core/FormControl';
import FormHelperText from '@material-ui/core/FormHelperText';
import InputLabel from '@material-ui/core/InputLabel';
import MenuItem from '@material-ui/core/MenuItem';
import Select from '@material-ui/core/Select';

/** One choice of a {@link SelectField}. */
export interface SelectChoice {
  value: string;
  label: ReactNode;
}

/**
 * The drop-down the pickers share (cluster, runtime, namespace, server version): a labelled MUI
 * select with an optional empty first choice in its own words, and help below it. `value` is ''
 * when nothing listed is picked; the empty choice answers `undefined`, as an unset field.
 */
export function SelectField(props: {
  /** The field's id (`idSchema.$id`); the label is `${id}-label`. */
  id: string;
  title: string;
  testId?: string;
  value: string;
  choices: readonly SelectChoice[];
  /** Offered first, in italics, when set: picking it clears the field. */
  emptyLabel?: string;
  onChange(value: string | undefined): void;
  required?: boolean;
  disabled?: boolean;
  error?: boolean;
  margin?: 'normal' | 'none';
  /** Lines above the help, e.g. why a value from a link was cleared. */
  notes?: ReactNode;
  help: ReactNode;
}) {
  const { id, emptyLabel } = props;
  return (
    <FormControl
      fullWidth
      margin={props.margin ?? 'normal'}
      required={props.required}
      disabled={props.disabled}
      error={props.error}
    >
      <InputLabel id={`${id}-label`} shrink={!!emptyLabel || undefined}>
        {props.title}
      </InputLabel>
      <Select
        labelId={`${id}-label`}
        id={id}
        data-testid={props.testId}
        value={props.value}
        displayEmpty={!!emptyLabel}
        onChange={e => props.onChange((e.target.value as string) || undefined)}
      >
        {emptyLabel && (
          <MenuItem value="">
            <em>{emptyLabel}</em>
          </MenuItem>
        )}
        {props.choices.map(c => (
          <MenuItem key={c.value} value={c.value}>
            {c.label}
          </MenuItem>
        ))}
      </Select>
      {props.notes}
      <FormHelperText>{props.help}</FormHelperText>
    </FormControl>
  );
}
