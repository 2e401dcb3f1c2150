import { FLEET } from '../../__testUtils__';
import { applyFilters, filterOptions, filtersFromSearch } from './fleetFilters';

describe('fleet filters', () => {
  it('reads the known filters from the URL query and ignores the rest', () => {
    expect(
      filtersFromSearch(
        new URLSearchParams('cluster=prod&state=Ready&page=2&runtime='),
      ),
    ).toEqual({ cluster: 'prod', state: 'Ready' });
  });

  it('matches version on the live version, as GET /fleet?version= does', () => {
    expect(
      applyFilters(FLEET.items, { version: '0.19.1' }).map(t => t.cluster),
    ).toEqual(['prod']);
  });

  it('needs every filter set to match', () => {
    expect(
      applyFilters(FLEET.items, { model: 'qwen', state: 'Ready' }).map(
        t => `${t.model}@${t.cluster}`,
      ),
    ).toEqual(['qwen@local']);
  });

  it('offers the values found, every state, and a value from a shared link that no target has', () => {
    const options = filterOptions(FLEET.items, { cluster: 'gone' });
    expect(options.cluster).toEqual(['gone', 'local', 'prod']);
    expect(options.version).toEqual(['0.19.1', '0.24.0']);
    expect(options.state).toEqual(['Ready', 'NotReady', 'Missing', 'Unknown']);
  });
});
