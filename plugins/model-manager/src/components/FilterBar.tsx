import Box from '@material-ui/core/Box';
import Button from '@material-ui/core/Button';
import type { ReactNode } from 'react';

/**
 * The filter fields of a list page (Models, Deployments), in a row above its table, with
 * "Clear filters" while any filter is set.
 */
export function FilterBar(props: {
  children: ReactNode;
  /** Whether any filter is set. */
  filtered: boolean;
  onClear: () => void;
}) {
  return (
    <Box
      display="flex"
      flexWrap="wrap"
      alignItems="center"
      style={{ gap: 16 }}
      marginBottom={2}
    >
      {props.children}
      {props.filtered && <Button onClick={props.onClear}>Clear filters</Button>}
    </Box>
  );
}
