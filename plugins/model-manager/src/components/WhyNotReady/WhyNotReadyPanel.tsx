import Box from '@material-ui/core/Box';
import Typography from '@material-ui/core/Typography';
import type {
  DiagnosedContainer,
  DiagnosedPod,
  Diagnosis,
} from '@model-manager/plugin-model-manager-common';

function containerWords(c: DiagnosedContainer): string {
  const parts = [
    `${c.init ? 'init container' : 'container'} ${c.name}: ${c.state}`,
  ];
  if (c.reason) parts.push(c.reason);
  if (c.exitCode !== undefined) parts.push(`exit code ${c.exitCode}`);
  if (c.restartCount > 0) parts.push(`${c.restartCount} restarts`);
  if (c.lastTermination?.reason)
    parts.push(
      `last run: ${c.lastTermination.reason}${
        c.lastTermination.exitCode !== undefined
          ? ` (exit code ${c.lastTermination.exitCode})`
          : ''
      }`,
    );
  return parts.join(', ') + (c.message ? ` — ${c.message}` : '');
}

function PodLines({ pod }: { pod: DiagnosedPod }) {
  return (
    <li>
      <Typography variant="body2">
        <b>{pod.name}</b> (
        {pod.role === 'download' ? 'weights download' : 'server'}
        ): {pod.phase}
        {pod.ready ? ', ready' : ', not ready'}
        {pod.nodeName ? ` on ${pod.nodeName}` : ''}
      </Typography>
      <ul>
        {pod.containers.map(c => (
          <li key={`${c.init}-${c.name}`}>
            <Typography variant="body2">{containerWords(c)}</Typography>
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * "Why not ready": a diagnosis in words — the headline, what the matched message means and the
 * fix, the pods and their containers, the Events and the last log lines of failed containers.
 */
export function WhyNotReadyPanel({ diagnosis }: { diagnosis: Diagnosis }) {
  const top = diagnosis.findings[0];
  return (
    <Box
      data-testid={`why-not-ready-${diagnosis.cluster}-${diagnosis.namespace}`}
      mt={1}
      mb={2}
      p={2}
      border={1}
      borderColor="grey.400"
      borderRadius={4}
    >
      <Typography variant="subtitle2">Why not ready</Typography>
      <Typography variant="body1" data-testid="diagnosis-headline">
        {diagnosis.headline}
      </Typography>
      {top && (
        <Box mt={1}>
          <Typography variant="body2">
            <b>What it means:</b> {top.meaning}
          </Typography>
          <Typography variant="body2" data-testid="diagnosis-fix">
            <b>Fix:</b> {top.fix}
          </Typography>
          {diagnosis.findings.slice(1).map(f => (
            <Typography key={f.signature} variant="caption" component="div">
              Also: {f.meaning} ({f.subject})
            </Typography>
          ))}
        </Box>
      )}
      {diagnosis.problems.map(p => (
        <Typography key={p} variant="body2" color="error">
          {p}
        </Typography>
      ))}
      {diagnosis.pods.length > 0 && (
        <Box mt={1}>
          <Typography variant="subtitle2">Pods</Typography>
          <ul data-testid="diagnosis-pods">
            {diagnosis.pods.map(p => (
              <PodLines key={p.name} pod={p} />
            ))}
          </ul>
        </Box>
      )}
      {diagnosis.events.length > 0 && (
        <Box mt={1}>
          <Typography variant="subtitle2">Events</Typography>
          <ul data-testid="diagnosis-events">
            {diagnosis.events.map((e, i) => (
              <li key={i}>
                <Typography
                  variant="body2"
                  color={e.type === 'Warning' ? 'error' : 'textPrimary'}
                >
                  {e.type} {e.reason} on {e.object}
                  {e.count > 1 ? ` (×${e.count})` : ''}: {e.message}
                </Typography>
              </li>
            ))}
          </ul>
        </Box>
      )}
      {diagnosis.logs.map(log => (
        <Box key={`${log.pod}-${log.container}`} mt={1}>
          <Typography variant="subtitle2">
            Log of {log.pod} container {log.container}
            {log.previous ? ' (previous run)' : ''}, last lines
          </Typography>
          {log.error ? (
            <Typography variant="body2" color="error">
              {log.error}
            </Typography>
          ) : log.lines.length === 0 ? (
            <Typography variant="body2" color="textSecondary">
              The log is empty.
            </Typography>
          ) : (
            <pre
              data-testid="diagnosis-log"
              style={{
                fontFamily: 'monospace',
                fontSize: 12,
                maxHeight: 240,
                overflow: 'auto',
                margin: 0,
                padding: 8,
                background: 'rgba(127,127,127,0.12)',
                whiteSpace: 'pre',
              }}
            >
              {log.lines.join('\n')}
            </pre>
          )}
        </Box>
      ))}
    </Box>
  );
}
