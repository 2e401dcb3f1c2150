import { z } from 'zod';

/**
 * The answer of `GET /gitops/pull-request-readiness?repoUrl=`: whether the portal could open a
 * pull request on that repository (the "Propose model deployment" template asks before it runs).
 */
export const pullRequestReadinessSchema = z.object({
  /** The repository's host, e.g. github.com (empty when repoUrl names none). */
  host: z.string(),
  ready: z.boolean(),
  /** What the portal would authenticate with; never the credential itself. */
  credentials: z.enum(['token', 'app', 'none']),
  /** In words: what the pull request is opened with, or why it cannot be and who can fix it. */
  message: z.string(),
});
