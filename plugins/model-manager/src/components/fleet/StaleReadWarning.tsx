import { WarningPanel } from '@backstage/core-components';
import { errorText } from '../../api';

/**
 * The warning of a live view whose read after a pushed change failed: what it shows stays, as
 * read at `readAt` (`shown` says what that is: "The table shows the deployments as read"), and
 * it is read again with the next change.
 */
export function StaleReadWarning(props: {
  error: Error;
  readAt: string;
  shown: string;
}) {
  return (
    <WarningPanel severity="warning" title="Could not read the latest changes">
      {errorText(props.error)}. {props.shown} at{' '}
      {new Date(props.readAt).toLocaleString()}; it is read again with the next
      change.
    </WarningPanel>
  );
}
