import type { z } from 'zod';
import type { pullRequestReadinessSchema } from './contract/answers/gitops';

/**
 * The answer of `GET /gitops/pull-request-readiness?repoUrl=`: whether the portal could open a
 * pull request on that repository (schema: pullRequestReadinessSchema).
 */
export type PullRequestReadiness = z.infer<typeof pullRequestReadinessSchema>;
