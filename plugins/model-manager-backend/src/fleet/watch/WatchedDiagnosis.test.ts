import type { Diagnosis } from '@model-manager/plugin-model-manager-common';
import type { DiagnosisTarget } from '../../diagnosis';
import { WatchedDiagnosis } from './WatchedDiagnosis';

const target = (model: string, resourceVersion: string): DiagnosisTarget => ({
  model,
  server: { kind: 'InferenceService', name: model },
  serverLive: { metadata: { resourceVersion } },
  objectNames: [model],
  signatures: [],
});

/** Watches that are live, with a namespace version the test moves and a change it announces. */
function fakeWatches() {
  let version = 0;
  let listener: (cluster: string, namespace: string) => void = () => {};
  return {
    watches: {
      started: async () => {},
      live: () => true,
      version: () => version,
      subscribe: (l: typeof listener) => {
        listener = l;
        return () => {};
      },
    },
    change: (namespace: string) => {
      version++;
      listener('local', namespace);
    },
  };
}

describe('WatchedDiagnosis', () => {
  it('diagnoses only the targets whose server object changed; a pod or Event change in the namespace diagnoses them all again and is pushed', async () => {
    const asked: string[][] = [];
    const reader = {
      diagnoseNamespace: async (
        _cluster: string,
        _namespace: string,
        targets: DiagnosisTarget[],
      ) => {
        asked.push(targets.map(t => t.model));
        return new Map(
          targets.map(t => [
            t.model,
            {
              headline: `${t.model}@${t.serverLive?.metadata.resourceVersion}`,
            } as Diagnosis,
          ]),
        );
      },
    };
    const { watches, change } = fakeWatches();
    const diagnosis = WatchedDiagnosis.create({ reader, watches });
    const pushed: string[] = [];
    diagnosis.subscribe(c => pushed.push(c));
    const headlines = async (targets: DiagnosisTarget[]) =>
      [
        ...(
          await diagnosis.diagnoseNamespace('local', 'models', targets)
        ).values(),
      ].map(d => d.headline);

    expect(await headlines([target('a', '1'), target('b', '1')])).toEqual([
      'a@1',
      'b@1',
    ]);
    expect(await headlines([target('a', '1'), target('b', '2')])).toEqual([
      'a@1',
      'b@2',
    ]);
    expect(asked).toEqual([['a', 'b'], ['b']]);
    expect(diagnosis.version()).toBe(0);

    change('elsewhere');
    expect(pushed).toEqual([]);
    change('models');
    expect(pushed).toEqual(['local']);
    expect(diagnosis.version()).toBe(1);
    await headlines([target('a', '1'), target('b', '2')]);
    expect(asked).toEqual([['a', 'b'], ['b'], ['a', 'b']]);
    expect(diagnosis.listed()).toBe(0);
  });
});
