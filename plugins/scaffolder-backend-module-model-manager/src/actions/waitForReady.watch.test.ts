import { mockCredentials } from '@backstage/backend-test-utils';
import {
  actionContext,
  ALICE,
  type DeployInput,
  LLM_ISVC,
  startActionBackend,
} from '../__testUtils__/actionTestContext';
import { createDeployModelAction } from './deploy';

/**
 * The wait for Ready wakes on the backend's pushed fleet change (GET /fleet/events, the watch
 * cache) instead of the next poll: with a poll an hour apart, only the push can end this wait.
 */
describe('model-manager:deploy waits for Ready on the pushed change', () => {
  let mm: Awaited<ReturnType<typeof startActionBackend>>;
  beforeAll(async () => {
    mm = await startActionBackend({
      modelManagerConfig: { fleet: { cacheSeconds: 0, watch: true } },
    });
  }, 120_000);
  afterAll(() => mm?.stop(), 120_000);

  it('asks for the status again when the target cluster changes', async () => {
    // A fleet read starts the cluster's watches (as the Deployments page or a rollout plan does).
    const fleet = await fetch(
      `http://localhost:${mm.server.port()}/api/model-manager/fleet`,
      { headers: { Authorization: mockCredentials.user.header(ALICE) } },
    );
    expect(fleet.status).toBe(200);
    const action = createDeployModelAction({
      discovery: mm.discovery,
      auth: mm.auth,
      readyPollIntervalMs: 3_600_000,
    });
    const name = 'qwen2-5-7b-instruct';
    const run = actionContext<DeployInput>({
      model: name,
      cluster: 'local',
      namespace: 'models',
      waitForReady: true,
    });
    let said = false;
    run.logger.info.mockImplementation((line: string) => {
      if (!said && line.startsWith('waiting for model')) {
        said = true;
        // The KServe controller, on the cluster: the watch sees it and the backend pushes it.
        mm.kube.store.setStatus(
          { ...LLM_ISVC, namespace: 'models', name },
          {
            conditions: [
              { type: 'Ready', status: 'True' },
              { type: 'WorkloadsReady', status: 'True' },
            ],
            url: `http://${name}.models.example.com`,
          },
        );
      }
    });

    await action.handler(run.ctx);

    expect(said).toBe(true);
    expect(run.outputs()).toMatchObject({ ready: true });
  }, 60_000);
});
