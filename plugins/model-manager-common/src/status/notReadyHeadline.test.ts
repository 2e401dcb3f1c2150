import { notReadyHeadline } from './notReadyHeadline';

describe('notReadyHeadline', () => {
  it.each([
    {
      given: { awaitingKServe: true, downloadPhase: 'failed' as const },
      want: { waiting: false, words: 'weights download failed' },
    },
    {
      given: { downloadPhase: 'failed' as const },
      want: { waiting: false, words: 'weights download failed' },
    },
    {
      given: { awaitingKServe: true, downloadPhase: 'pending' as const },
      want: { waiting: true, words: 'waiting for the weights download' },
    },
    {
      given: { awaitingKServe: true, downloadPhase: 'running' as const },
      want: { waiting: true, words: 'waiting for the weights download' },
    },
    {
      given: { awaitingKServe: true, downloadPhase: 'complete' as const },
      want: { waiting: true, words: 'waiting for KServe' },
    },
    {
      given: { awaitingKServe: true },
      want: { waiting: true, words: 'waiting for KServe' },
    },
    // KServe said not Ready (or a known failure was found): failing, even mid-download.
    { given: { downloadPhase: 'running' as const }, want: { waiting: false } },
    { given: {}, want: { waiting: false } },
  ])('$given → $want', ({ given, want }) => {
    expect(notReadyHeadline(given)).toEqual(want);
  });
});
