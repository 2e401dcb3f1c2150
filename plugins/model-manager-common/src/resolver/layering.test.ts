import type { Origin } from '../catalog/types';
import { buildCatalog } from '../catalog/buildCatalog';
import { fixtureSources } from '../testUtils/catalogFixtures';
import { ArgLayers, EnvLayers, flagKey } from './layering';

// The engine profiles as runtimes/vllm/profile.yaml and runtimes/openvino/profile.yaml declare them.
const { runtimes } = buildCatalog(fixtureSources());
const vllm = runtimes.vllm.profile;
const ovms = runtimes.openvino.profile;
const at = (layer: Origin['layer'], path: string): Origin => ({
  layer,
  file: 'models.yaml',
  path,
});

interface FlagRule {
  rule: string;
  flag: string;
  key: string;
  profile?: typeof vllm;
}

// vLLM's FlexibleArgumentParser.parse_args (https://github.com/vllm-project/vllm,
// vllm/utils/argparse_utils.py; vllm/utils/__init__.py before): for an arg starting with `--`,
// `pattern = re.compile(r"(?<=--)[^\.]*")` and `key.replace("_", "-")` on the name up to the
// first `.`. Short aliases: EngineArgs.add_cli_args in vllm/engine/arg_utils.py
// (`add_argument("--tensor-parallel-size", "-tp", ...)`).
const flagRules: FlagRule[] = [
  {
    rule: 'vLLM reads _ as - in a long flag name',
    flag: '--enable_expert_parallel',
    key: '--enable-expert-parallel',
  },
  {
    rule: 'vLLM reads _ as - in every part of the name',
    flag: '--max_model-len',
    key: '--max-model-len',
  },
  {
    rule: 'vLLM leaves the part after the first . alone',
    flag: '--compilation_config.cudagraph_mode',
    key: '--compilation-config.cudagraph_mode',
  },
  {
    rule: 'vLLM short alias -ep is --enable-expert-parallel',
    flag: '-ep',
    key: '--enable-expert-parallel',
  },
  {
    rule: 'vLLM short alias -tp is --tensor-parallel-size',
    flag: '-tp',
    key: '--tensor-parallel-size',
  },
  {
    rule: 'vLLM short alias -dp is --data-parallel-size',
    flag: '-dp',
    key: '--data-parallel-size',
  },
  {
    rule: 'vLLM short alias -q is --quantization',
    flag: '-q',
    key: '--quantization',
  },
  {
    rule: 'vLLM short alias -O is --optimization-level (newer vLLM; it was --compilation-config)',
    flag: '-O',
    key: '--optimization-level',
  },
  {
    rule: 'vLLM does not rewrite _ in a short option',
    flag: '-x_y',
    key: '-x_y',
  },
  {
    rule: 'OVMS flags are compared as written (no _/- equivalence in its parser)',
    flag: '--max_num_seqs',
    key: '--max_num_seqs',
    profile: ovms,
  },
];

describe('flagKey: flags as the engine parser reads them', () => {
  it.each(flagRules)('$rule', ({ flag, key, profile }) => {
    expect(flagKey(flag, profile ?? vllm)).toBe(key);
  });
});

describe('ArgLayers: a repeated flag replaces the earlier one, in any spelling', () => {
  const rules = [
    {
      rule: '--max_model_len=1024 in a later layer replaces --max-model-len=8192, keeping its position and the spelling written',
      layers: [['--max-model-len=8192', '--seed=1'], ['--max_model_len=1024']],
      expected: ['--max_model_len=1024', '--seed=1'],
    },
    {
      rule: '-tp 2 written as -tp=2 replaces --tensor-parallel-size=4',
      layers: [['--tensor-parallel-size=4'], ['-tp=2']],
      expected: ['-tp=2'],
    },
    {
      rule: 'a one-letter option with its value written on, -O3, is --optimization-level=3: a later --optimization-level=1 replaces it',
      layers: [['-O3'], ['--optimization-level=1']],
      expected: ['--optimization-level=1'],
    },
    {
      rule: '-qfp8 is -q fp8 (--quantization), replacing an earlier --quantization=awq',
      layers: [['--quantization=awq'], ['-qfp8']],
      expected: ['-qfp8'],
    },
    {
      rule: 'different flags are both kept',
      layers: [['--max-model-len=8192'], ['--max-num-seqs=8']],
      expected: ['--max-model-len=8192', '--max-num-seqs=8'],
    },
  ];
  it.each(rules)('$rule', ({ layers, expected }) => {
    const args = new ArgLayers(vllm);
    layers.forEach((items, n) =>
      args.apply(items, i => at(n === 0 ? 'category' : 'model', `args[${i}]`)),
    );
    const result = args.result();
    expect(result.map(a => a.value)).toEqual(expected);
    if (layers.length > 1 && expected.length === 1) {
      expect(result[0].overrode.map(o => o.value)).toEqual([layers[0][0]]);
    }
  });
});

describe('EnvLayers: null removes; setting again keeps the history', () => {
  it('a variable removed by one layer and set again by a later layer remembers the removal', () => {
    const env = new EnvLayers();
    env.set('X', '1', at('runtime-env', 'runtimes.vllm.env.X'));
    env.set('X', null, at('model', 'models.m.server.env.X'));
    env.set('X', '2', at('override', 'env.X'));
    const { env: vars, removedEnv } = env.result();
    expect(removedEnv).toEqual([]);
    expect(vars).toEqual([
      {
        name: 'X',
        value: '2',
        origin: at('override', 'env.X'),
        overrode: [
          { value: '1', origin: at('runtime-env', 'runtimes.vllm.env.X') },
          {
            value: '1',
            origin: at('model', 'models.m.server.env.X'),
            removed: true,
          },
        ],
      },
    ]);
  });
});
