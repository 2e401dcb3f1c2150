import { createApp } from '@backstage/frontend-defaults';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import { navModule } from './modules/nav';

/** Plugins in package.json are discovered (app.packages: all); the nav is ours. */
export default createApp({
  features: [catalogPlugin, navModule],
});
