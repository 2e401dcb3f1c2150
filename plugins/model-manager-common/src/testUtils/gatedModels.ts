import { modelsYaml } from './catalogFixtures';

/**
 * Gated models on both engines: a Hugging Face token from a Secret and image pull secrets, at the
 * model layer (the repository's runtimes: section below them).
 */
export const GATED_MODELS = modelsYaml(`
  gated-vllm:
    model_id: meta-llama/Llama-3.1-8B-Instruct
    category: llm
    server:
      runtime: vllm
      image_pull_secrets: [registry-creds]
      env:
        HF_TOKEN: { secretKeyRef: { name: hf-token, key: token } }
  gated-ov:
    model_id: meta-llama/Llama-3.2-1B-Instruct
    category: llm
    weight_format: int4
    server:
      runtime: openvino
      image_pull_secrets: [registry-creds]
      env:
        HF_TOKEN: { secretKeyRef: { name: hf-token, key: token } }
`);
