import {
  compileSignatures,
  KUBERNETES_SIGNATURES,
  signaturesFor,
  type Signature,
} from './signatures';

const profile = (file: string): { file: string; signatures: Signature[] } => ({
  file,
  signatures: [
    {
      id: 'cuda-oom',
      where: 'log',
      match: 'CUDA out of memory',
      meaning: 'the model does not fit the GPU',
    } as Signature,
  ],
});

describe('signaturesFor', () => {
  it("the engine's signatures first, then the common ones, as compiled one by one", () => {
    const vllm = profile('vllm.yaml');
    const expected = [
      ...compileSignatures(vllm.signatures, 'vllm.yaml'),
      ...compileSignatures(KUBERNETES_SIGNATURES, 'kubernetes'),
    ];
    expect(signaturesFor(vllm)).toEqual(expected);
    expect(signaturesFor()).toEqual(
      compileSignatures(KUBERNETES_SIGNATURES, 'kubernetes'),
    );
  });

  it('compiles once per profile: the same list for the same profile, another for another', () => {
    const a = profile('a.yaml');
    const b = profile('b.yaml');
    expect(signaturesFor(a)).toBe(signaturesFor(a));
    expect(signaturesFor(b)).not.toBe(signaturesFor(a));
    expect(signaturesFor(b)[0].source).toBe('b.yaml');
  });

  it('shared expressions keep no state between matches (no global or sticky flag)', () => {
    for (const s of signaturesFor(profile('a.yaml'))) {
      expect(s.regex.global || s.regex.sticky).toBe(false);
    }
  });
});
