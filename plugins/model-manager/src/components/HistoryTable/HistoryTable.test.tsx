import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { MockPermissionApi } from '@backstage/test-utils';
import type { DeploymentHistoryItem } from '@model-manager/plugin-model-manager-common';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeApi, historyRow, renderWithApi } from '../../__testUtils__';
import type { ModelManagerApi } from '../../api';
import { HistoryTable } from './HistoryTable';

const IMAGE = '.spec.template.containers[name=main].image';

/** Newest first, as the backend lists it: a rollback, a dry run, a rollout, the first deploy. */
const history: DeploymentHistoryItem[] = [
  historyRow({
    id: 14,
    revision: 3,
    action: 'rollback',
    rollbackOf: 1,
    serverVersion: '0.19.1',
    changesFromPrevious: {
      previousRevision: 2,
      objects: [
        {
          kind: 'LLMInferenceService',
          name: 'qwen',
          change: 'changed',
          fields: [
            { path: IMAGE, live: 'vllm:0.24.0', rendered: 'vllm:0.19.1' },
          ],
        },
      ],
    },
  }),
  historyRow({
    id: 13,
    revision: undefined,
    action: 'dry-run',
    actor: 'user:default/carol',
    results: [
      {
        apiVersion: 'serving.kserve.io/v1alpha2',
        kind: 'LLMInferenceService',
        name: 'qwen',
        action: 'configured',
        changes: [{ path: '.spec.replicas', live: 1, rendered: 2 }],
      },
    ],
  }),
  historyRow({
    id: 12,
    revision: 2,
    action: 'rollout',
    actor: 'user:default/bob',
    serverVersion: '0.24.0',
    changesFromPrevious: {
      previousRevision: 1,
      objects: [
        {
          kind: 'LLMInferenceService',
          name: 'qwen',
          change: 'changed',
          fields: [
            { path: IMAGE, live: 'vllm:0.19.1', rendered: 'vllm:0.24.0' },
          ],
        },
      ],
    },
  }),
  historyRow({
    id: 11,
    revision: 1,
    changesFromPrevious: {
      objects: [
        {
          kind: 'LLMInferenceService',
          name: 'qwen',
          change: 'added',
          fields: [],
        },
      ],
    },
  }),
];

async function renderTable(
  api: ModelManagerApi,
  result: AuthorizeResult.ALLOW | AuthorizeResult.DENY,
  onChanged = jest.fn(),
) {
  const toast = { post: jest.fn(() => ({ close: () => {} })) };
  await renderWithApi(
    api,
    <HistoryTable model="qwen" history={history} onChanged={onChanged} />,
    {
      // `result` for the deploy permission on this model's entity; nothing else is allowed.
      permissions: new MockPermissionApi(request =>
        request.permission.name === 'model-manager.model.deploy' &&
        request.resourceRef === 'component:default/qwen'
          ? result
          : AuthorizeResult.DENY,
      ),
      toast,
    },
  );
  await screen.findByText('Deploy history');
  return { toast, onChanged };
}

const rowOf = async (text: string) =>
  (await screen.findByText(text)).closest('tr') as HTMLElement;

describe('HistoryTable', () => {
  it('numbers revisions per model, shows dry runs without a number, rollouts and what a rollback went back to', async () => {
    await renderTable(fakeApi(), AuthorizeResult.DENY);
    const dryRun = await rowOf('user:default/carol');
    expect(within(dryRun).getByText('dry run')).toBeInTheDocument();
    expect(within(dryRun).queryByText(/^\d+$/)).not.toBeInTheDocument();
    expect(
      within(await rowOf('user:default/bob')).getByText('rollout'),
    ).toBeInTheDocument();
    expect(screen.getByText('rollback to rev 1')).toBeInTheDocument();
    expect(screen.getByText('first at local/models')).toBeInTheDocument();
  });

  it('opens the changes since the previous revision, field by field', async () => {
    await renderTable(fakeApi(), AuthorizeResult.DENY);
    fireEvent.click(
      await screen.findByRole('button', { name: '1 change(s) since rev 1' }),
    );
    expect(screen.getByTestId('changes-12')).toHaveTextContent(
      `${IMAGE}: rev 1 vllm:0.19.1 → rev 2 vllm:0.24.0`,
    );
    expect(screen.queryByTestId('changes-14')).not.toBeInTheDocument();
  });

  it("shows a dry run's would-change diff instead of 'created'", async () => {
    await renderTable(fakeApi(), AuthorizeResult.DENY);
    fireEvent.click(
      await screen.findByRole('button', { name: 'would change 1' }),
    );
    expect(screen.getByTestId('changes-13')).toHaveTextContent(
      '.spec.replicas: live 1 → would be 2',
    );
  });

  it('asks before a rollback, showing the diff of a rollback dry run, then rolls back and reloads', async () => {
    const api = fakeApi();
    const { toast, onChanged } = await renderTable(api, AuthorizeResult.ALLOW);
    const rolloutRow = await rowOf('user:default/bob');
    fireEvent.click(
      within(rolloutRow).getByRole('button', { name: 'Roll back' }),
    );

    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Roll back qwen on local/models to rev 2?'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(within(dialog).getByTestId('rollback-plan')).toHaveTextContent(
        `${IMAGE}: live vllm:0.24.0 → after vllm:0.19.1`,
      ),
    );
    expect(api.rollback).toHaveBeenCalledTimes(1);
    expect(api.rollback).toHaveBeenCalledWith('qwen', 2, { dryRun: true });

    fireEvent.click(
      within(dialog).getByRole('button', { name: 'Roll back to rev 2' }),
    );
    await waitFor(() =>
      expect(api.rollback).toHaveBeenLastCalledWith('qwen', 2),
    );
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(toast.post).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Rolled back qwen on local/models to rev 2',
        status: 'success',
      }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
  });

  it('applies nothing when the rollback is cancelled', async () => {
    const api = fakeApi();
    await renderTable(api, AuthorizeResult.ALLOW);
    fireEvent.click(
      within(await rowOf('user:default/bob')).getByRole('button', {
        name: 'Roll back',
      }),
    );
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
    expect(api.rollback).toHaveBeenCalledTimes(1); // the dry run only
  });

  it('cannot confirm a rollback whose dry run fails, and says why', async () => {
    const failing = fakeApi({
      rollback: jest.fn(async () =>
        Promise.reject(new Error('cluster prod is unreachable')),
      ),
    });
    await renderTable(failing, AuthorizeResult.ALLOW);
    fireEvent.click(
      within(await rowOf('user:default/bob')).getByRole('button', {
        name: 'Roll back',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(
      await within(dialog).findByText('cluster prod is unreachable'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Roll back to rev 2' }),
    ).toBeDisabled();
  });

  it('does not offer Roll back on the revision live on its target, and marks it live', async () => {
    await renderTable(fakeApi(), AuthorizeResult.ALLOW);
    // rev 3 (the rollback) is the newest that applied on local/models.
    const liveRow = (await screen.findByText('rollback to rev 1')).closest(
      'tr',
    ) as HTMLElement;
    expect(within(liveRow).getByText('live')).toBeInTheDocument();
    expect(
      within(liveRow).queryByRole('button', { name: 'Roll back' }),
    ).not.toBeInTheDocument();
    expect(
      within(await rowOf('user:default/bob')).getByRole('button', {
        name: 'Roll back',
      }),
    ).toBeInTheDocument();
  });

  it('offers rollback only to users allowed to deploy, and only to rows with a revision', async () => {
    await renderTable(fakeApi(), AuthorizeResult.ALLOW);
    await screen.findAllByRole('button', { name: 'Roll back' });
    expect(
      within(await rowOf('user:default/carol')).queryByRole('button', {
        name: 'Roll back',
      }),
    ).not.toBeInTheDocument();
    // rev 2 and rev 1; rev 3 is live.
    expect(screen.getAllByRole('button', { name: 'Roll back' })).toHaveLength(
      2,
    );
  });

  it('hides rollback from users who may not deploy', async () => {
    await renderTable(fakeApi(), AuthorizeResult.DENY);
    expect(await screen.findByText('user:default/carol')).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Roll back' }),
    ).not.toBeInTheDocument();
  });

  it('opens a dialog beside the row: what this deploy changed since the previous revision, and the revision against live', async () => {
    const revisionDiff = jest.fn(async (model: string, revision: number) => ({
      model,
      revision,
      cluster: 'local',
      namespace: 'models',
      againstPrevious: {
        previousRevision: 1,
        objects: [
          {
            kind: 'LLMInferenceService',
            name: 'qwen',
            change: 'changed' as const,
            fields: [
              { path: IMAGE, live: 'vllm:0.19.1', rendered: 'vllm:0.24.0' },
            ],
          },
        ],
      },
      againstLive: {
        objects: [
          {
            kind: 'LLMInferenceService',
            name: 'qwen',
            change: 'changed' as const,
            fields: [
              {
                path: IMAGE,
                rendered: 'vllm:0.24.0',
                live: 'vllm:0.24.0-hotfix',
              },
            ],
          },
        ],
      },
    }));
    await renderTable(fakeApi({ revisionDiff }), AuthorizeResult.DENY);
    // The dry run has no revision: no Diff there.
    expect(
      within(await rowOf('user:default/carol')).queryByRole('button', {
        name: 'Diff',
      }),
    ).not.toBeInTheDocument();
    fireEvent.click(
      within(await rowOf('user:default/bob')).getByRole('button', {
        name: 'Diff',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(revisionDiff).toHaveBeenCalledWith('qwen', 2);
    expect(
      within(dialog).getByText('Revision 2 of qwen on local/models'),
    ).toBeInTheDocument();
    const body = await within(dialog).findByTestId('revision-diff');
    await waitFor(() =>
      expect(body).toHaveTextContent(
        `What this deploy changed (since revision 1)LLMInferenceService qwen: changed (1 field)${IMAGE}: rev 1 vllm:0.19.1 → rev 2 vllm:0.24.0`,
      ),
    );
    expect(body).toHaveTextContent(
      `Revision 2 (with its own overrides) vs live now`,
    );
    expect(body).toHaveTextContent(
      `${IMAGE}: live vllm:0.24.0-hotfix → rev 2 vllm:0.24.0`,
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument(),
    );
  });

  it('says so when live is what the revision applied', async () => {
    await renderTable(fakeApi(), AuthorizeResult.DENY);
    fireEvent.click(
      within(await rowOf('user:default/bob')).getByRole('button', {
        name: 'Diff',
      }),
    );
    expect(
      await screen.findByText('Live is what revision 2 applied.'),
    ).toBeInTheDocument();
  });
});
