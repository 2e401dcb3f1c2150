import type { ScmIntegrationRegistry } from '@backstage/integration';
import type { PullRequestReadiness } from '@model-manager/plugin-model-manager-common';

/**
 * Whether the stock `publish:github:pull-request` action could open a pull request on the
 * repository of `repoUrl` (RepoUrlPicker's `github.com?owner=o&repo=r`), told before the
 * "Propose model deployment" template runs rather than on its last step.
 *
 * What the action needs, read from @backstage/plugin-scaffolder-backend-module-github 0.10.0
 * (`getOctokitOptions` in dist/util.cjs.js): an `integrations.github` entry for the host ("No
 * integration for host …" otherwise) and, as no user token is passed by the template, a token from
 * `DefaultGithubCredentialsProvider` (@backstage/integration), which has one only when the entry
 * has a `token` or `apps` ("No token available for host …" otherwise). `ScmIntegrations` always
 * adds a github.com entry without credentials, so an entry alone proves nothing.
 *
 * Only whether credentials exist is said, never what they are.
 */
export function pullRequestReadiness(
  integrations: ScmIntegrationRegistry,
  repoUrl: string,
): PullRequestReadiness {
  const host = hostOf(repoUrl);
  if (!host)
    return {
      host: '',
      ready: false,
      credentials: 'none',
      message: `'${repoUrl}' is not a repository location: pick the host, owner and repository above`,
    };
  const config = integrations.github.byHost(host)?.config;
  if (!config)
    return {
      host,
      ready: false,
      credentials: 'none',
      message: `${host} is not a GitHub host the portal knows: an administrator adds it under integrations.github in app-config (host: ${host}, with a token or a GitHub App) for pull requests to be opened there`,
    };
  const credentials = config.apps?.length
    ? 'app'
    : config.token
    ? 'token'
    : 'none';
  if (credentials === 'none')
    return {
      host,
      ready: false,
      credentials,
      message: `The portal has no GitHub credentials for ${host}, so it cannot open the pull request: an administrator adds a token or a GitHub App to the ${host} entry of integrations.github in app-config. Meanwhile, download the objects below and commit them yourself`,
    };
  return {
    host,
    ready: true,
    credentials,
    message: `The pull request is opened with the portal's ${
      credentials === 'app' ? 'GitHub App' : 'GitHub token'
    } for ${host}`,
  };
}

/** `github.com?owner=o&repo=r` (RepoUrlPicker), also with a scheme: the host, lower-cased. */
function hostOf(repoUrl: string): string | undefined {
  const host = repoUrl
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .split(/[?/]/, 1)[0]
    .toLowerCase();
  return /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d+)?$/.test(host)
    ? host
    : undefined;
}
