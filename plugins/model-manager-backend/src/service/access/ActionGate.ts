import type { AuditorService } from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
import type { ResourcePermission } from '@backstage/plugin-permission-common';
import type { DeploymentResult } from '@model-manager/plugin-model-manager-common';
import type { ModelAuthorizer } from '../../permissions';
import { identify, type Caller, type Identity } from './Caller';

/**
 * Permission checks and audit events of the operations that change a cluster or propose a change
 * (deploy, rollback, undeploy, GitOps render, rollout), each with the model's entity ref.
 */
export class ActionGate {
  private constructor(
    private readonly options: {
      authorizer: ModelAuthorizer;
      auditor: AuditorService;
      /** Send Impersonate-User with the signed-in user's entity ref. */
      impersonateUser: boolean;
    },
  ) {}

  static create(options: ActionGate['options']): ActionGate {
    return new ActionGate(options);
  }

  /** The caller's identity, without a permission check (reads). */
  identify(caller: Caller): Promise<Identity> {
    return identify(caller, this.options.impersonateUser);
  }

  /**
   * Audit event and permission check with the model's entity ref; on deny, a failed audit event
   * and a 403 naming who, what and why. Returns the event for the caller to close.
   */
  async authorize(
    caller: Caller,
    eventId: string,
    permission: ResourcePermission<'catalog-entity'>,
    meta: Record<string, any> & { model: string },
  ) {
    const who = await this.identify(caller);
    const event = await this.options.auditor.createEvent({
      eventId,
      severityLevel: 'medium',
      request: caller.request,
      meta: { ...meta, actor: who.actor },
    });
    const [denial] = await this.options.authorizer.denials(
      permission,
      [meta.model],
      who.credentials,
      who.actor,
    );
    if (denial) {
      const error = new NotAllowedError(denial.message);
      await event.fail({ error, meta: { outcome: 'denied' } });
      throw error;
    }
    return { event, who };
  }

  /**
   * Runs a cluster-changing operation on `model`: {@link authorize}, then the operation; its
   * outcome closes the audit event (a thrown error or a failed result: failed).
   */
  async guard(
    caller: Caller,
    eventId: string,
    permission: ResourcePermission<'catalog-entity'>,
    meta: Record<string, any> & { model: string },
    run: (who: Identity) => Promise<DeploymentResult>,
  ): Promise<DeploymentResult> {
    const { event, who } = await this.authorize(
      caller,
      eventId,
      permission,
      meta,
    );
    let result: DeploymentResult;
    try {
      result = await run(who);
    } catch (e) {
      await event.fail({ error: e as Error });
      throw e;
    }
    const auditMeta = {
      revision: result.revision,
      action: result.action,
      objects: result.objects.map(o => `${o.kind}/${o.name}:${o.action}`),
    };
    if (result.ok) await event.success({ meta: auditMeta });
    else
      await event.fail({
        error: new Error(result.message ?? 'failed'),
        meta: auditMeta,
      });
    return result;
  }

  /**
   * One permission check for several models (a rollout batch): any model denied refuses the
   * whole batch, with one failed audit event `eventId` naming every model denied.
   */
  async authorizeAll(
    caller: Caller,
    eventId: string,
    permission: ResourcePermission<'catalog-entity'>,
    models: string[],
    meta: Record<string, any>,
    refusal: (denials: string) => string,
  ): Promise<Identity> {
    const who = await this.identify(caller);
    const denials = await this.options.authorizer.denials(
      permission,
      models,
      who.credentials,
      who.actor,
    );
    if (denials.length > 0) {
      const error = new NotAllowedError(
        refusal(denials.map(d => d.message).join('; ')),
      );
      const event = await this.options.auditor.createEvent({
        eventId,
        severityLevel: 'medium',
        request: caller.request,
        meta: {
          actor: who.actor,
          ...meta,
          denied: denials.map(d => d.model),
        },
      });
      await event.fail({ error, meta: { outcome: 'denied' } });
      throw error;
    }
    return who;
  }

  /** An audit event `eventId` for `caller`, opened now for the caller to close. */
  event(caller: Caller, eventId: string, meta: Record<string, any>) {
    return this.options.auditor.createEvent({
      eventId,
      severityLevel: 'medium',
      request: caller.request,
      meta,
    });
  }
}
