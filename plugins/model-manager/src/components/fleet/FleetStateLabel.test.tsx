import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { FleetStateLabel } from './FleetStateLabel';

describe('FleetStateLabel', () => {
  it('a model KServe has not reported on yet is waiting, not an error', async () => {
    await renderInTestApp(
      <FleetStateLabel
        state="NotReady"
        awaitingKServe
        reason="KServe has not reported a Ready condition for this LLMInferenceService yet."
      />,
    );
    expect(screen.getByText('Waiting for KServe')).toBeInTheDocument();
    expect(screen.queryByText('NotReady')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Status error')).not.toBeInTheDocument();
  });

  it('waiting on its weights download, it says so (as the Serving tab does); a failed download is an error', async () => {
    const job = {
      name: 'bge-small-en-v1-5-ov-download',
      namespace: 'models',
      failedPods: 0,
    };
    const { unmount } = await renderInTestApp(
      <FleetStateLabel
        state="NotReady"
        awaitingKServe
        download={{ ...job, phase: 'running', message: 'Downloading.' }}
        reason="Weights download bge-small-en-v1-5-ov-download: Downloading."
      />,
    );
    expect(
      screen.getByText('Waiting for the weights download'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Waiting for KServe')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Status error')).not.toBeInTheDocument();
    unmount();

    // A finished download no longer names it (the fleet leaves it out), whatever KServe says.
    const done = await renderInTestApp(
      <FleetStateLabel state="NotReady" awaitingKServe />,
    );
    expect(screen.getByText('Waiting for KServe')).toBeInTheDocument();
    done.unmount();

    await renderInTestApp(
      <FleetStateLabel
        state="NotReady"
        download={{
          ...job,
          phase: 'failed',
          failedPods: 7,
          reason: 'BackoffLimitExceeded',
          message: 'Download failed (BackoffLimitExceeded).',
        }}
      />,
    );
    expect(screen.getByText('Weights download failed')).toBeInTheDocument();
    expect(screen.getByLabelText('Status error')).toBeInTheDocument();
  });

  it('a failing model says NotReady; a long reason is cut, the whole of it in the tooltip', async () => {
    const reason = `WorkloadsReady is False: the vLLM pods are not ready (ImagePullBackOff: ${'x'.repeat(
      200,
    )}).`;
    await renderInTestApp(<FleetStateLabel state="NotReady" reason={reason} />);
    expect(screen.getByText('NotReady')).toBeInTheDocument();
    expect(screen.getByLabelText('Status error')).toBeInTheDocument();
    const caption = screen.getByText(/^WorkloadsReady is False/);
    expect(caption.textContent!.length).toBeLessThanOrEqual(111);
    expect(caption.textContent!.endsWith('…')).toBe(true);
    expect(caption).toHaveAttribute('title', reason);
  });
});
