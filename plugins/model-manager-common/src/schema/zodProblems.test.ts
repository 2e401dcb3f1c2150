import { closest } from './zodProblems';

describe('closest: the key a misspelt one meant', () => {
  it.each([
    // The nearest wins over a shorter key sharing the prefix.
    [
      'controler_name',
      ['controller', 'controller_name', 'format'],
      'controller_name',
    ],
    [
      'server_verison',
      ['server_version', 'server', 'resources'],
      'server_version',
    ],
    // Far by edit distance, but a long shared prefix: that key.
    ['gpu_memory', ['gpu_memory_gibibytes', 'cpu'], 'gpu_memory_gibibytes'],
    // Nothing near: no guess.
    ['zzz', ['controller', 'format'], undefined],
  ])('%s among %j: %s', (word, candidates, expected) => {
    expect(closest(word, candidates)).toBe(expected);
  });
});
