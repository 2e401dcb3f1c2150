import type { PullRequestReadiness } from '@model-manager/plugin-model-manager-common';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { ModelManagerApi } from '../../api';
import { fieldProps, renderWithApi } from '../../__testUtils__';
import {
  PullRequestCheck,
  pullRequestCheckValidation,
} from './PullRequestCheck';

const NO_TOKEN: PullRequestReadiness = {
  host: 'github.com',
  ready: false,
  credentials: 'none',
  message:
    'The portal has no GitHub credentials for github.com, so it cannot open the pull request',
};
const TOKEN: PullRequestReadiness = {
  host: 'github.com',
  ready: true,
  credentials: 'token',
  message: "The pull request is opened with the portal's GitHub token",
};

const form = {
  model: 'component:default/qwen',
  cluster: 'local',
  namespace: 'models',
  serverVersion: '0.19.1',
  args: ['--max-model-len=4096'],
  repoUrl: 'github.com?owner=acme&repo=gitops',
};

function makeApi(answer: PullRequestReadiness) {
  return {
    pullRequestReadiness: jest.fn(async () => answer),
    render: jest.fn(async () => [
      {
        kind: 'LLMInferenceService',
        name: 'qwen',
        manifest: { apiVersion: 'v1', kind: 'X', metadata: { name: 'qwen' } },
      },
    ]),
  };
}

async function renderField(api: ReturnType<typeof makeApi>) {
  const onChange = jest.fn();
  await renderWithApi(
    api as unknown as ModelManagerApi,
    <PullRequestCheck
      {...fieldProps('pullRequest', 'Pull request', {
        onChange,
        formContext: { formData: form },
      })}
    />,
  );
  return onChange;
}

describe('PullRequestCheck', () => {
  beforeEach(() => {
    (URL as any).createObjectURL = jest.fn(() => 'blob:objects');
    (URL as any).revokeObjectURL = jest.fn();
  });

  it('says the portal cannot open the pull request, and why, before anything runs; its value is that answer', async () => {
    const api = makeApi(NO_TOKEN);
    const onChange = await renderField(api);
    expect(
      await screen.findByText(/no GitHub credentials for github.com/),
    ).toBeInTheDocument();
    expect(api.pullRequestReadiness).toHaveBeenCalledWith(form.repoUrl);
    await waitFor(() =>
      expect(onChange).toHaveBeenCalledWith(NO_TOKEN.message),
    );
  });

  it('offers the objects as a download whatever the answer, rendered with the form\u2019s choices', async () => {
    const api = makeApi(NO_TOKEN);
    await renderField(api);
    fireEvent.click(
      await screen.findByRole('button', {
        name: /Download qwen-local-models.yaml/,
      }),
    );
    await waitFor(() =>
      expect(api.render).toHaveBeenCalledWith('qwen', {
        cluster: 'local',
        namespace: 'models',
        serverVersion: '0.19.1',
        args: ['--max-model-len=4096'],
      }),
    );
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    const blob = (URL.createObjectURL as jest.Mock).mock.calls[0][0] as Blob;
    expect(await blob.text()).toContain('name: qwen');
  });

  it('blocks the step only while the portal has no credentials for the host', async () => {
    for (const [answer, errors] of [
      [NO_TOKEN, [NO_TOKEN.message]],
      [TOKEN, []],
    ] as const) {
      const added: string[] = [];
      await pullRequestCheckValidation(
        undefined,
        { addError: (m: string) => added.push(m) } as any,
        {
          apiHolder: { get: () => makeApi(answer) },
          formData: form,
        } as any,
      );
      expect(added).toEqual(errors);
    }
  });
});
