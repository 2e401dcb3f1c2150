import {
  modelRenderPermission,
  renderManifests,
  resolveServer,
  type RenderedObject,
  type RenderRequest,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import type { Caller } from '../access';
import type { UseCaseContext } from '../types';

/** The objects a deploy would apply: the Serving tab's preview, and the GitOps render. */
export class RenderUseCase {
  constructor(private readonly ctx: UseCaseContext) {}

  /** The model's objects with these overrides, in `namespace`. */
  render(
    name: string,
    overrides: ServerOverrides,
    namespace: string,
  ): RenderedObject[] {
    const catalog = this.ctx.catalog();
    return renderManifests(
      catalog,
      resolveServer(catalog, name, overrides, { locate: false }),
      { namespace },
    );
  }

  /**
   * `POST /models/:name/render`. Without a cluster: the preview (the Serving tab's manifests), open
   * to every signed-in user as `/models/:name/resolved` is. For a cluster (the GitOps render, what
   * the model-manager:render action asks): the same cluster and namespace checks as a deploy, so a
   * pull request never proposes what the portal would refuse to apply, then
   * model-manager.model.render on the model's entity, audited (docs/security.md).
   */
  async renderRequest(
    model: string,
    request: RenderRequest,
    caller: Caller,
  ): Promise<RenderedObject[]> {
    const { namespace = 'default', cluster, ...overrides } = request;
    const items = this.render(model, overrides, namespace);
    if (cluster !== undefined) {
      this.ctx.checkTarget({ cluster, namespace });
      const { event } = await this.ctx
        .gate()
        .authorize(caller, 'model-render', modelRenderPermission, {
          model,
          cluster,
          namespace,
        });
      await event.success({ meta: { objects: items.length } });
    }
    return items;
  }
}
