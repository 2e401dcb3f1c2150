import type { Entity } from '@backstage/catalog-model';
import { diffEntities, providedEntities } from './diffEntities';

const component = (name: string, description = 'a model'): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name, description },
  spec: { type: 'model-server', owner: 'group:default/ml', lifecycle: 'x' },
});
const api = (name: string): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'API',
  metadata: { name: `${name}-openai-api` },
  spec: { type: 'openapi', definition: '{}' },
});

const before = [component('a'), api('a'), component('b'), api('b')];

const rules: Array<{
  rule: string;
  next: Entity[];
  added: string[];
  removed: string[];
}> = [
  { rule: 'the same entities: nothing', next: before, added: [], removed: [] },
  {
    rule: 'one entity changed: only that one',
    next: [component('a'), api('a'), component('b', 'changed'), api('b')],
    added: ['b'],
    removed: [],
  },
  {
    rule: 'a new model: its entities',
    next: [...before, component('c'), api('c')],
    added: ['c', 'c-openai-api'],
    removed: [],
  },
  {
    rule: 'a model gone: its refs removed',
    next: [component('a'), api('a')],
    added: [],
    removed: ['api:default/b-openai-api', 'component:default/b'],
  },
  {
    rule: 'a renamed model: added under the new name, removed under the old',
    next: [component('a'), api('a'), component('b2'), api('b2')],
    added: ['b2', 'b2-openai-api'],
    removed: ['api:default/b-openai-api', 'component:default/b'],
  },
  {
    rule: 'the order of the entities does not matter',
    next: [...before].reverse(),
    added: [],
    removed: [],
  },
];

describe('diffEntities', () => {
  it.each(rules)('$rule', ({ next, added, removed }) => {
    const delta = diffEntities(providedEntities(before), next);
    expect(delta.added.map(e => e.metadata.name).sort()).toEqual(added);
    expect(delta.removed.sort()).toEqual(removed);
    // What is provided afterwards is exactly `next`, so the next diff starts from it.
    expect(diffEntities(delta.provided, next)).toMatchObject({
      added: [],
      removed: [],
    });
  });

  it('from nothing provided, everything is added', () => {
    const delta = diffEntities(new Map(), before);
    expect(delta.added).toEqual(before);
    expect(delta.removed).toEqual([]);
  });
});
