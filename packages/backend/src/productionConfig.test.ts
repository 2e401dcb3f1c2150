/*
 * The production overlay is secure by default: loaded the way `node packages/backend --config
 * app-config.yaml --config app-config.production.yaml` loads it, it turns model-manager's
 * ownership policy on and refuses to start while a cluster has no namespace allowlist.
 */
import path from 'node:path';
import { ConfigSources, StaticConfigSource } from '@backstage/config-loader';
import { ClusterRegistry } from '@model-manager/plugin-model-manager-backend/testUtils';

const root = path.resolve(__dirname, '../../..');

/** The config files merged as the backend merges them, every `${VAR}` given a placeholder. */
async function loadFiles(files: string[], extra: object = {}) {
  const source = ConfigSources.merge([
    ConfigSources.defaultForTargets({
      rootDir: root,
      targets: files.map(f => ({
        type: 'path' as const,
        target: path.join(root, f),
      })),
      substitutionFunc: async name =>
        name === 'K8S_URL' ? 'https://k8s.example.com' : `x-${name}`,
    }),
    StaticConfigSource.create({ data: extra as any, context: 'test' }),
  ]);
  const config = await ConfigSources.toConfig(source);
  config.close();
  return config;
}
const productionConfig = (extra: object = {}) =>
  loadFiles(['app-config.yaml', 'app-config.production.yaml'], extra);

describe('app-config.production.yaml', () => {
  it('turns the ownership permission policy on', async () => {
    const config = await productionConfig();
    expect(config.getBoolean('modelManager.permissionPolicy.enabled')).toBe(
      true,
    );
  });

  it('refuses to start with an open cluster, naming the key to set', async () => {
    const config = await productionConfig();
    expect(() => ClusterRegistry.fromConfig(config)).toThrow(
      /cluster production has no namespace allowlist: set modelManager\.kubernetes\.clusters\.production\.namespaces/,
    );
  });

  it('starts once the cluster lists its namespaces', async () => {
    const config = await productionConfig({
      modelManager: {
        kubernetes: { clusters: { production: { namespaces: ['models'] } } },
      },
    });
    const registry = ClusterRegistry.fromConfig(config);
    expect(() =>
      registry.assertNamespaceAllowed('production', 'kube-system'),
    ).toThrow(/not open to model deployments on cluster production/);
  });

  it('the embedded default (npm start) stays open', async () => {
    const config = await loadFiles(['app-config.yaml']);
    expect(
      config.getOptionalBoolean('modelManager.permissionPolicy.enabled'),
    ).toBeFalsy();
    expect(() => ClusterRegistry.fromConfig(config)).not.toThrow();
  });
});
