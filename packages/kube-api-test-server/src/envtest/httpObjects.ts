/** {@link KubeObjects} over HTTP, for a real kube-apiserver (resources found through discovery). */
import type { TestRequest, TestResponse } from '../testing/httpClient';
import type { ObjectRef } from '../store/ObjectStore';
import type { JsonObject } from '../util/json';
import type { KubeObjects } from './KubeTarget';

type Send = (req: TestRequest) => Promise<TestResponse>;

function fail(what: string, res: TestResponse): never {
  throw new Error(`${what} answered ${res.status}: ${res.text.slice(0, 500)}`);
}

export function httpObjects(send: Send): KubeObjects {
  const resources = new Map<string, { name: string; namespaced: boolean }[]>();

  async function pathOf(ref: ObjectRef, name?: string): Promise<string> {
    const base = ref.apiVersion.includes('/')
      ? `/apis/${ref.apiVersion}`
      : `/api/${ref.apiVersion}`;
    let list = resources.get(base);
    if (!list) {
      const res = await send({ path: base });
      if (res.status !== 200) fail(`discovery ${base}`, res);
      list = (res.json.resources as any[])
        .filter(r => !r.name.includes('/'))
        .map(r => ({ name: r.name, namespaced: r.namespaced, kind: r.kind }));
      resources.set(base, list);
    }
    const rt = (list as any[]).find(
      r => r.kind === ref.kind || r.name === ref.kind,
    );
    if (!rt) throw new Error(`${ref.apiVersion} ${ref.kind} is not served`);
    const ns = rt.namespaced ? `/namespaces/${ref.namespace}` : '';
    return `${base}${ns}/${rt.name}${name ? `/${name}` : ''}`;
  }

  const refOf = (o: JsonObject): ObjectRef => {
    const meta = o.metadata as JsonObject;
    return {
      apiVersion: o.apiVersion as string,
      kind: o.kind as string,
      namespace: meta.namespace as string | undefined,
      name: meta.name as string,
    };
  };

  const objects: KubeObjects = {
    async get(ref) {
      const res = await send({ path: await pathOf(ref, ref.name) });
      if (res.status === 404) return undefined;
      if (res.status !== 200) fail(`GET ${ref.kind} ${ref.name}`, res);
      return res.json;
    },
    async put(object) {
      const ref = refOf(object);
      const current = await objects.get(ref);
      const body = JSON.parse(JSON.stringify(object));
      if (current) {
        body.metadata.resourceVersion = current.metadata
          ? (current.metadata as JsonObject).resourceVersion
          : undefined;
        const res = await send({
          method: 'PUT',
          path: await pathOf(ref, ref.name),
          body,
        });
        if (res.status !== 200) fail(`PUT ${ref.kind} ${ref.name}`, res);
        return res.json;
      }
      const res = await send({ method: 'POST', path: await pathOf(ref), body });
      if (res.status !== 201) fail(`POST ${ref.kind} ${ref.name}`, res);
      return res.json;
    },
    async setStatus(ref, status, opts = {}) {
      const current = await objects.get(ref);
      if (!current)
        throw new Error(`setStatus: ${ref.kind} ${ref.name} not found`);
      const manager = opts.fieldManager
        ? `?fieldManager=${encodeURIComponent(opts.fieldManager)}`
        : '';
      const res = await send({
        method: 'PUT',
        path: `${await pathOf(ref, ref.name)}/status${manager}`,
        body: { ...current, status },
      });
      if (res.status !== 200) fail(`PUT ${ref.kind} ${ref.name}/status`, res);
      return res.json;
    },
    async delete(ref) {
      const path = await pathOf(ref, ref.name);
      const res = await send({
        method: 'DELETE',
        path,
        // Now, as the interface says: no kubelet finishes a graceful delete of a bound pod.
        body: { propagationPolicy: 'Background', gracePeriodSeconds: 0 },
      });
      if (res.status === 404) return false;
      if (res.status !== 200 && res.status !== 202)
        fail(`DELETE ${ref.kind} ${ref.name}`, res);
      // No controller runs here to remove finalizers (pvc-protection, …): remove them.
      const left = await objects.get(ref);
      if (left) {
        await send({
          method: 'PATCH',
          path,
          body: { metadata: { finalizers: null } },
          contentType: 'application/merge-patch+json',
        });
      }
      return true;
    },
  };
  return objects;
}
