import type { ObjectResult } from '@model-manager/plugin-model-manager-common';
import { render, screen } from '@testing-library/react';
import { WouldChange, wouldChangeCount, wouldChangeText } from './ChangesCell';

const object = (o: Partial<ObjectResult>): ObjectResult => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  name: 'ovms-weights',
  namespace: 'models',
  action: 'configured',
  ...o,
});

// An OpenVINO rollback dry run answers `exists` for the shared ClusterServingRuntime and weights
// claim (create-if-absent, never changed): they are not "would be created".
describe('what a dry run says of each object', () => {
  it.each<[string, Partial<ObjectResult>, string, number]>([
    [
      'shared, there',
      { action: 'exists' },
      'exists (shared with other models): left as it is',
      0,
    ],
    ['absent', { action: 'created' }, 'would be created', 1],
    [
      'no live object, older answer',
      { action: 'configured' },
      'would be created',
      1,
    ],
    ['same content', { action: 'unchanged', changes: [] }, 'unchanged', 0],
    [
      'two fields',
      {
        action: 'configured',
        changes: [
          { path: '.spec.replicas', live: 1, rendered: 2 },
          { path: '.spec.x', live: 1, rendered: 2 },
        ],
      },
      '2 fields',
      2,
    ],
    [
      'immutable field',
      { action: 'replaced', message: 'spec.template cannot be changed' },
      'would be deleted and created again (spec.template cannot be changed)',
      1,
    ],
    ['refused', { action: 'failed', message: 'denied' }, 'failed: denied', 1],
  ])('%s', (_name, o, text, count) => {
    expect(wouldChangeText(object(o))).toBe(text);
    expect(wouldChangeCount(object(o))).toBe(count);
  });

  it('lists a shared object as left alone in the rollback plan', () => {
    render(
      <WouldChange
        after="after"
        objects={[
          object({
            kind: 'ClusterServingRuntime',
            name: 'ovms',
            action: 'exists',
          }),
          object({
            kind: 'InferenceService',
            name: 'bge',
            action: 'unchanged',
            changes: [],
          }),
        ]}
      />,
    );
    expect(
      screen.getByText(
        'ClusterServingRuntime ovms: exists (shared with other models): left as it is',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText('InferenceService bge: unchanged'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/would be created/)).not.toBeInTheDocument();
  });
});
