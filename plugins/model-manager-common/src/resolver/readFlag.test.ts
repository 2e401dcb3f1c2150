import { buildCatalog } from '../catalog/buildCatalog';
import { modelsYaml, fixtureSources } from '../testUtils/catalogFixtures';
import { resolveServer } from './resolveServer';
import type { ServerOverrides } from './types';

// The shipped catalog: llama-3-1-8b-instruct is a dense llm pinned to vLLM 0.19.1 (whose version
// delta adds --enable-chunked-prefill), qwen3-30b-a3b is moe: true.
const catalog = buildCatalog(fixtureSources());
const resolve = (model: string, overrides: ServerOverrides = {}) =>
  resolveServer(catalog, model, overrides, { locate: false });
const args = (model: string, overrides: ServerOverrides) =>
  resolve(model, overrides).args.map(a => a.value);

/*
 * How vLLM's parser reads an args item, cited in runtimes/vllm/profile.yaml:
 * - argparse.BooleanOptionalAction (vllm/engine/arg_utils.py `_compute_kwargs`, for every bool
 *   config field) declares `--x` and `--no-x` for one dest; the last one read wins.
 * - FlexibleArgumentParser (vllm/utils/argparse_utils.py) and the serve subparser
 *   (vllm/entrypoints/cli/serve.py) leave argparse's allow_abbrev on: `--max-model-l` is read as
 *   --max-model-len.
 * - FlexibleArgumentParser merges `--opt.key=value` into --opt's JSON value.
 * - nargs=0 actions refuse `=value` ("ignored explicit argument"); a value flag without one stops
 *   with "expected one argument".
 */
interface ArgRule {
  rule: string;
  model: string;
  args: string[];
  /** The args vLLM gets, in order. */
  out?: string[];
  /** Which layer won the option, for `--x` / `--no-x` pairs. */
  winner?: { value: string; layer: string; overrode: string[] };
  /** The refusal. */
  error?: string | RegExp;
}

const rules: ArgRule[] = [
  {
    rule: '--no-x after --x in one request: one item, the later spelling',
    model: 'llama-3-1-8b-instruct',
    args: ['--no-enable-chunked-prefill', '--enable-chunked-prefill'],
    out: ['--enable-chunked-prefill'],
    winner: {
      value: '--enable-chunked-prefill',
      layer: 'override',
      overrode: ['--enable-chunked-prefill', '--no-enable-chunked-prefill'],
    },
  },
  {
    rule: "a request's --no-x replaces the version delta's --x",
    model: 'llama-3-1-8b-instruct',
    args: ['--no-enable-chunked-prefill'],
    out: ['--no-enable-chunked-prefill'],
    winner: {
      value: '--no-enable-chunked-prefill',
      layer: 'override',
      overrode: ['--enable-chunked-prefill'],
    },
  },
  {
    rule: '--no-x is read with _ as - like its positive form',
    model: 'llama-3-1-8b-instruct',
    args: ['--no-enable_chunked_prefill'],
    out: ['--no-enable_chunked_prefill'],
  },
  {
    rule: 'an abbreviation of a declared flag is refused, naming the full flag',
    model: 'qwen2-5-7b-instruct',
    args: ['--max-model-l=4096'],
    error:
      "--max-model-l is an abbreviation of --max-model-len: vLLM's parser reads unambiguous prefixes",
  },
  {
    rule: 'an abbreviated MoE-only flag is refused on a dense model',
    model: 'llama-3-1-8b-instruct',
    args: ['--enable-expert-par'],
    error: '--enable-expert-par is an abbreviation of --enable-expert-parallel',
  },
  {
    rule: 'an abbreviation of --no-x is refused too',
    model: 'llama-3-1-8b-instruct',
    args: ['--no-enable-chunked'],
    error:
      '--no-enable-chunked is an abbreviation of --no-enable-chunked-prefill',
  },
  {
    rule: 'an ambiguous abbreviation is refused as vLLM does',
    model: 'llama-3-1-8b-instruct',
    args: ['--max-num=4'],
    error:
      '--max-num is an ambiguous abbreviation (--max-num-batched-tokens, --max-num-seqs)',
  },
  {
    rule: 'the negative form of a MoE-only boolean turns it off, so a dense model may have it',
    model: 'llama-3-1-8b-instruct',
    args: ['--no-enable-expert-parallel'],
    out: ['--enable-chunked-prefill', '--no-enable-expert-parallel'],
  },
  {
    rule: 'a dotted key of a MoE-only flag is refused on a dense model',
    model: 'llama-3-1-8b-instruct',
    args: ['--eplb-config.window_size=10'],
    error:
      '--eplb-config.window_size (--eplb-config) is a MoE-only flag and crashes dense models',
  },
  {
    rule: 'a dotted key of a MoE-only flag, written with _, is refused on a dense model',
    model: 'llama-3-1-8b-instruct',
    args: ['--eplb_config.window_size=10'],
    error: /--eplb_config\.window_size \(--eplb-config\) is a MoE-only flag/,
  },
  {
    rule: 'a dotted key is allowed on a moe: true model and kept as written',
    model: 'qwen3-30b-a3b',
    args: ['--eplb-config.window_size=10'],
    out: ['--enable-expert-parallel', '--eplb-config.window_size=10'],
  },
  {
    rule: 'an option written whole and by dotted keys is refused: vLLM appends the dotted keys last, replacing the whole value',
    model: 'qwen3-30b-a3b',
    args: ['--eplb-config={"window_size":5}', '--eplb-config.step_interval=10'],
    error:
      /--eplb-config\.step_interval sets a key of --eplb-config, which --eplb-config=\{"window_size":5\} \(args\[0\]\) sets whole: vLLM reads the dotted keys as one JSON value after every other flag/,
  },
  {
    rule: 'dotted keys of one option stand beside each other',
    model: 'qwen3-30b-a3b',
    args: ['--eplb-config.window_size=5', '--eplb-config.step_interval=10'],
    out: [
      '--enable-expert-parallel',
      '--eplb-config.window_size=5',
      '--eplb-config.step_interval=10',
    ],
  },
  {
    rule: 'a boolean flag with =false is refused; the fix is --no-x',
    model: 'llama-3-1-8b-instruct',
    args: ['--enable-prefix-caching=false'],
    error:
      '--enable-prefix-caching=false: vLLM reads --enable-prefix-caching as a boolean flag (--x or --no-enable-prefix-caching) that takes no value, and stops at start ("ignored explicit argument"). Write --no-enable-prefix-caching',
  },
  {
    rule: 'a boolean flag with =true is refused; the fix is the bare flag',
    model: 'qwen3-30b-a3b',
    args: ['--enable-expert-parallel=true'],
    error: /ignored explicit argument"\)\. Write --enable-expert-parallel$/,
  },
  {
    rule: '--no-x=true is refused; the fix is --no-x',
    model: 'llama-3-1-8b-instruct',
    args: ['--no-enable-prefix-caching=true'],
    error:
      /takes no value, and stops at start \("ignored explicit argument"\)\. Write --no-enable-prefix-caching$/,
  },
  {
    rule: 'a short alias that takes a value, given none, is refused with its long name',
    model: 'llama-3-1-8b-instruct',
    args: ['-tp'],
    error:
      '-tp (--tensor-parallel-size) takes a value: vLLM stops at start with "expected one argument". Write -tp=<value> as one item',
  },
  {
    rule: 'a long flag that takes a value, given none, is refused',
    model: 'llama-3-1-8b-instruct',
    args: ['--max_model_len'],
    error: '--max_model_len (--max-model-len) takes a value',
  },
  {
    rule: '--no- of a flag that takes a value is refused',
    model: 'llama-3-1-8b-instruct',
    args: ['--no-max-model-len'],
    error: '--no-max-model-len: vLLM has no negative form of --max-model-len',
  },
  {
    rule: '-O3 then --optimization-level=1 in one request: one item, the later one (vLLM reads -O3 as --optimization-level 3)',
    model: 'llama-3-1-8b-instruct',
    args: ['-O3', '--optimization-level=1'],
    out: ['--enable-chunked-prefill', '--optimization-level=1'],
    winner: {
      value: '--optimization-level=1',
      layer: 'override',
      overrode: ['-O3'],
    },
  },
  {
    rule: '-O given no level is refused with its long name',
    model: 'llama-3-1-8b-instruct',
    args: ['-O'],
    error:
      '-O (--optimization-level) takes a value: vLLM stops at start with "expected one argument". Write -O=<value> as one item',
  },
  {
    rule: 'a flag the profile does not list passes as written',
    model: 'llama-3-1-8b-instruct',
    args: ['--seed=1', '--disable-log-requests'],
    out: ['--enable-chunked-prefill', '--seed=1', '--disable-log-requests'],
  },
];

describe('args as vLLM reads them (runtimes/vllm/profile.yaml flag_kinds, flag_abbreviations)', () => {
  it.each(rules)('$rule', ({ model, args: given, out, winner, error }) => {
    if (error) {
      expect(() => resolve(model, { args: given })).toThrow(error);
      return;
    }
    if (out) expect(args(model, { args: given })).toEqual(out);
    if (winner) {
      const arg = resolve(model, { args: given }).args.find(
        a => a.value === winner.value,
      )!;
      expect(arg.origin.layer).toBe(winner.layer);
      expect(arg.overrode.map(o => o.value)).toEqual(winner.overrode);
    }
  });

  it('across layers the later layer wins and its layer is the origin', () => {
    // category --no-enable-prefix-caching, version --enable-prefix-caching, model --no-...
    const text = modelsYaml(
      `
  m:
    model_id: org/m
    category: llm
    server:
      runtime: vllm
      server_version: "0.19.1"
      args: ["--no-enable-prefix-caching"]
`,
    )
      .replace(
        'args: ["--enable-chunked-prefill"]',
        'args: ["--enable-chunked-prefill", "--enable-prefix-caching"]',
      )
      .replace(
        'llm:    { defaults: { cpu: 8,  memory: "16Gi", kv_cache_gb: 8 } }',
        'llm:    { defaults: { cpu: 8,  memory: "16Gi", kv_cache_gb: 8 }, args: ["--no-enable-prefix-caching"] }',
      );
    const s = resolveServer(
      buildCatalog(fixtureSources({ models: text })),
      'm',
    );
    expect(s.args.map(a => a.value)).toEqual([
      '--no-enable-prefix-caching',
      '--enable-chunked-prefill',
    ]);
    expect(s.args[0].origin.layer).toBe('model');
    expect(s.args[0].overrode.map(o => [o.value, o.origin.layer])).toEqual([
      ['--no-enable-prefix-caching', 'category'],
      ['--enable-prefix-caching', 'version'],
    ]);
  });
});
