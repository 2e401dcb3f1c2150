/** The object tests' server: namespaces default and demo, InferenceServices in demo. */
import { ADMIN_TOKEN, KubeApiTestServer } from '../index';
import { TestRequest, TestResponse, clientFor } from './httpClient';

/** The InferenceServices of namespace demo. */
export const ISVC =
  '/apis/serving.kserve.io/v1beta1/namespaces/demo/inferenceservices';

/** An OpenVINO InferenceService; `extra` goes into its predictor's model. */
export const isvc = (
  name: string,
  extra: Record<string, unknown> = {},
  labels: Record<string, string> = {},
) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, labels },
  spec: {
    predictor: {
      model: {
        modelFormat: { name: 'openvino' },
        storageUri: 'pvc://m',
        ...extra,
      },
    },
  },
});

/**
 * A server for the describe block (started before it, stopped after), with namespace demo emptied
 * of InferenceServices before each test; `call` sends a request as the admin.
 */
export function useDemoServer() {
  let server: KubeApiTestServer | undefined;
  let client: ((req: TestRequest) => Promise<TestResponse>) | undefined;
  beforeAll(async () => {
    server = await KubeApiTestServer.start({ namespaces: ['default', 'demo'] });
    client = clientFor(server.url, ADMIN_TOKEN);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    await client!({ method: 'DELETE', path: ISVC });
  });
  return { call: (req: TestRequest) => client!(req) };
}
