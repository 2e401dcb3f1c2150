import {
  coreExtensionData,
  createFrontendModule,
} from '@backstage/frontend-plugin-api';
import kubernetesPlugin from '@backstage/plugin-kubernetes/alpha';
import { WithKServeStatus } from '@model-manager/plugin-model-manager';

/**
 * The stock Kubernetes tab, with the model's KServe status card above it on model entities (the
 * card shows KServe's conditions, the weights download and the endpoint, which the stock tab
 * cannot). Overrides the kubernetes plugin's own `entity-content:kubernetes/kubernetes` and keeps
 * everything it outputs (path, title, filter, group) but the element, which it wraps.
 */
const kubernetesContent = kubernetesPlugin
  .getExtension('entity-content:kubernetes/kubernetes')
  .override({
    *factory(originalFactory) {
      for (const output of originalFactory()) {
        yield output.id === coreExtensionData.reactElement.id
          ? coreExtensionData.reactElement(
              <WithKServeStatus>
                {output.value as JSX.Element}
              </WithKServeStatus>,
            )
          : output;
      }
    },
  });

export const kubernetesTabModule = createFrontendModule({
  pluginId: 'kubernetes',
  extensions: [kubernetesContent],
});
