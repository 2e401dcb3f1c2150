import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import { kubernetesTabModule } from './modules/kubernetesTab';
import { navModule } from './modules/nav';

/**
 * Plugins in package.json are discovered (app.packages: all); the nav is ours, and the Kubernetes
 * tab shows the model's KServe status card above the stock content.
 */
export default createApp({
  features: [catalogPlugin, navModule, kubernetesTabModule],
});
