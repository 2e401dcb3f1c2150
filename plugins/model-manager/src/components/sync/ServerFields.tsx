import Typography from '@material-ui/core/Typography';
import type { WhatRuns } from '@model-manager/plugin-model-manager-common';

/** Version, image, env and args of a model server, one line each. */
export function ServerFields(props: {
  server: Pick<WhatRuns, 'version' | 'image' | 'env' | 'args'>;
}) {
  const { version, image, env, args } = props.server;
  const line = (label: string, value: string | undefined) => (
    <Typography variant="body2" component="div">
      {label}: <code style={{ wordBreak: 'break-all' }}>{value || '—'}</code>
    </Typography>
  );
  return (
    <>
      {line('Version', version)}
      {line('Image', image)}
      {line(
        'Env',
        env &&
          Object.entries(env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' '),
      )}
      {line('Args', args?.join(' '))}
    </>
  );
}
