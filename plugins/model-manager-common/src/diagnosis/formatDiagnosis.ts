import type { Diagnosis } from '../api/diagnosis';

/**
 * A diagnosis as plain text lines, for terminals and task logs (the CLI's `status`, the
 * scaffolder's wait for Ready): the headline, the fix, other findings, what could not be read,
 * the pods' containers, Warning Events and the last log lines (at most `logLines` per log).
 */
export function formatDiagnosis(d: Diagnosis, logLines = 10): string[] {
  const out = [`why not ready on ${d.cluster}/${d.namespace}: ${d.headline}`];
  const [top, ...others] = d.findings;
  if (top) out.push(`  fix: ${top.fix}`);
  for (const f of others) out.push(`  also: ${f.meaning} (${f.subject})`);
  for (const p of d.problems) out.push(`  ${p}`);
  for (const pod of d.pods)
    for (const c of pod.containers) {
      const parts = [
        c.state,
        c.reason,
        c.exitCode !== undefined ? `exit code ${c.exitCode}` : undefined,
      ];
      if (c.restartCount > 0) parts.push(`${c.restartCount} restarts`);
      if (c.lastTermination?.reason)
        parts.push(`last run ${c.lastTermination.reason}`);
      out.push(
        `  pod ${pod.name} (${pod.phase}) container ${c.name}: ${parts
          .filter(Boolean)
          .join(', ')}`,
      );
    }
  for (const e of d.events.filter(ev => ev.type === 'Warning'))
    out.push(`  event ${e.reason} on ${e.object}: ${e.message}`);
  for (const log of d.logs) {
    out.push(
      `  log of ${log.pod}/${log.container}${
        log.previous ? ' (previous run)' : ''
      }:${log.error ? ` ${log.error}` : ''}`,
    );
    for (const line of log.lines.slice(-logLines)) out.push(`    | ${line}`);
  }
  return out;
}
