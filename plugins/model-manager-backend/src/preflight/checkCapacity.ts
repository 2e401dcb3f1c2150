/** Checks that the pod fits: the namespace's ResourceQuotas and LimitRanges, and the nodes. */
import {
  parseQuantity,
  type PreflightCheck,
} from '@model-manager/plugin-model-manager-common';
import { limitRangesPath, NODES_PATH, quotasPath } from './paths';
import { formatQuantity, podRequests, type PodRequests } from './podRequests';
import { itemsOf, unreadable } from './readText';
import type { Read, TargetFacts } from './types';

const missing: Read = { ok: false, message: 'not read' };

/**
 * What one pod adds to each quota resource: the pod evaluator of kube's quota controller
 * (kubernetes pkg/quota/v1/evaluator/core/pods.go `podComputeUsageHelper`: `cpu` and
 * `requests.cpu` are the requests, `limits.*` the limits, `pods` and `count/pods` one).
 */
function podUsage(
  pod: PodRequests,
): Record<string, { need: number; memory: boolean }> {
  const cpu = { need: pod.cpu.value, memory: false };
  const memory = { need: pod.memory.value, memory: true };
  const one = { need: 1, memory: false };
  return {
    cpu,
    'requests.cpu': cpu,
    'limits.cpu': cpu,
    memory,
    'requests.memory': memory,
    'limits.memory': memory,
    pods: one,
    'count/pods': one,
  };
}

const podText = (pod: PodRequests) =>
  `the pod requests cpu ${pod.cpu.text} and memory ${pod.memory.text}`;

/** 4a. Every ResourceQuota of the namespace has headroom for the pod (`status.used` vs `hard`). */
export function checkQuota(facts: TargetFacts): PreflightCheck | undefined {
  const title = "The namespace's ResourceQuota has room for the pod";
  const pod = podRequests(facts.server);
  if (!pod) return undefined;
  const read = facts.reads.get(quotasPath(facts.namespace)) ?? missing;
  if (!read.ok)
    return {
      id: 'quota',
      title,
      status: 'unknown',
      ...unreadable(read, facts.cluster, 'list', 'resourcequotas'),
    };
  const quotas = itemsOf(read);
  if (quotas.length === 0)
    return {
      id: 'quota',
      title,
      status: 'pass',
      message: `namespace ${facts.namespace} has no ResourceQuota`,
    };
  const usage = podUsage(pod);
  const over: string[] = [];
  const noStatus: string[] = [];
  for (const q of quotas) {
    const name = q.metadata?.name;
    const hard: Record<string, string> = q.status?.hard ?? q.spec?.hard ?? {};
    const used: Record<string, string> | undefined = q.status?.used;
    if (!used) {
      noStatus.push(name);
      continue;
    }
    for (const [key, limit] of Object.entries(hard)) {
      const u = usage[key];
      if (!u) continue;
      const h = parseQuantity(limit) ?? Infinity;
      const now = parseQuantity(used[key] ?? '0') ?? 0;
      if (now + u.need > h)
        over.push(
          `${name}: ${key} used ${
            used[key] ?? '0'
          } of ${limit}, the pod needs ${formatQuantity(
            u.need,
            u.memory,
          )} more`,
        );
    }
  }
  if (over.length > 0)
    return {
      id: 'quota',
      title,
      status: 'fail',
      message: `ResourceQuota in ${
        facts.namespace
      } would refuse the pod (${podText(pod)}): ${over.join('; ')}`,
      fix: `ask the namespace's owner to raise the quota, free room in ${facts.namespace}, or lower the model's cpu/memory`,
    };
  if (noStatus.length > 0)
    return {
      id: 'quota',
      title,
      status: 'warn',
      message: `ResourceQuota ${noStatus.join(', ')} in ${
        facts.namespace
      } has no status.used yet (the quota controller has not computed it), so its headroom is not known`,
      fix: `check it by hand: kubectl -n ${facts.namespace} describe resourcequota`,
    };
  return {
    id: 'quota',
    title,
    status: 'pass',
    message: `${quotas.length} ResourceQuota(s) in ${
      facts.namespace
    } have room: ${podText(pod)}`,
  };
}

/**
 * 4b. The namespace's LimitRanges admit the pod: per Container and per Pod, the limits at most
 * `max` and the requests at least `min` (the LimitRanger admission plugin, kubernetes
 * plugin/pkg/admission/limitranger/admission.go `PodValidateLimitFunc`).
 */
export function checkLimitRange(
  facts: TargetFacts,
): PreflightCheck | undefined {
  const title = "The namespace's LimitRange admits the pod";
  const pod = podRequests(facts.server);
  if (!pod) return undefined;
  const read = facts.reads.get(limitRangesPath(facts.namespace)) ?? missing;
  if (!read.ok)
    return {
      id: 'limit-range',
      title,
      status: 'unknown',
      ...unreadable(read, facts.cluster, 'list', 'limitranges'),
    };
  const ranges = itemsOf(read);
  const refused: string[] = [];
  for (const range of ranges) {
    for (const item of range.spec?.limits ?? []) {
      if (item.type !== 'Container' && item.type !== 'Pod') continue;
      for (const [resource, have] of [
        ['cpu', pod.cpu],
        ['memory', pod.memory],
      ] as const) {
        const max = item.max?.[resource];
        const min = item.min?.[resource];
        if (max !== undefined && have.value > (parseQuantity(max) ?? Infinity))
          refused.push(
            `${range.metadata?.name}: ${item.type} max ${resource} is ${max}, the pod sets ${have.text}`,
          );
        if (min !== undefined && have.value < (parseQuantity(min) ?? 0))
          refused.push(
            `${range.metadata?.name}: ${item.type} min ${resource} is ${min}, the pod sets ${have.text}`,
          );
      }
    }
  }
  if (refused.length > 0)
    return {
      id: 'limit-range',
      title,
      status: 'fail',
      message: `LimitRange in ${
        facts.namespace
      } would refuse the pod: ${refused.join('; ')}`,
      fix: "set the model's cpu/memory within the range, or ask the namespace's owner to change the LimitRange",
    };
  return {
    id: 'limit-range',
    title,
    status: 'pass',
    message:
      ranges.length === 0
        ? `namespace ${facts.namespace} has no LimitRange`
        : `${ranges.length} LimitRange(s) in ${facts.namespace} admit ${podText(
            pod,
          )}`,
  };
}

/** Why a node cannot take a new pod without tolerations, or undefined when it can. */
function unschedulable(node: Record<string, any>): string | undefined {
  if (node.spec?.unschedulable) return 'cordoned';
  const ready = (node.status?.conditions ?? []).find(
    (c: any) => c.type === 'Ready',
  );
  if (ready?.status !== 'True') return 'not Ready';
  // Our pods carry no tolerations: a NoSchedule or NoExecute taint keeps them off the node.
  const taint = (node.spec?.taints ?? []).find(
    (t: any) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
  );
  if (taint) return `tainted ${taint.key}:${taint.effect}`;
  return undefined;
}

/**
 * 5. At least one schedulable node (not cordoned, Ready, no NoSchedule/NoExecute taint) has
 * allocatable cpu and memory for the pod. Pods already on the node are not counted: a fit here is
 * necessary, not sufficient.
 */
export function checkNodes(facts: TargetFacts): PreflightCheck | undefined {
  const title = 'A schedulable node fits the pod';
  const pod = podRequests(facts.server);
  if (!pod) return undefined;
  const read = facts.reads.get(NODES_PATH) ?? missing;
  if (!read.ok)
    return {
      id: 'nodes',
      title,
      status: 'unknown',
      ...unreadable(read, facts.cluster, 'list', 'nodes'),
    };
  const nodes = itemsOf(read);
  if (nodes.length === 0)
    return {
      id: 'nodes',
      title,
      status: 'warn',
      message: `cluster ${facts.cluster} lists no nodes: only a cluster autoscaler (or virtual nodes) could run the pod`,
      fix: 'check that a node group can scale up to fit the pod',
    };
  const why = new Map<string, number>();
  let largest: { name: string; cpu: number; memory: number } | undefined;
  const fitting: string[] = [];
  for (const node of nodes) {
    const reason = unschedulable(node);
    if (reason) {
      const key = reason.startsWith('tainted') ? 'tainted' : reason;
      why.set(key, (why.get(key) ?? 0) + 1);
      continue;
    }
    const cpu = parseQuantity(node.status?.allocatable?.cpu ?? '0') ?? 0;
    const memory = parseQuantity(node.status?.allocatable?.memory ?? '0') ?? 0;
    if (cpu >= pod.cpu.value && memory >= pod.memory.value)
      fitting.push(node.metadata?.name);
    else if (
      !largest ||
      cpu + memory / 2 ** 30 > largest.cpu + largest.memory / 2 ** 30
    )
      largest = { name: node.metadata?.name, cpu, memory };
  }
  const skipped = [...why].map(([r, n]) => `${n} ${r}`).join(', ');
  if (fitting.length > 0)
    return {
      id: 'nodes',
      title,
      status: 'pass',
      message: `${fitting.length} of ${
        nodes.length
      } node(s) have allocatable room for ${podText(pod)} (${fitting
        .slice(0, 3)
        .join(', ')}${
        fitting.length > 3 ? ', ...' : ''
      }; pods already running there not counted)`,
    };
  if (!largest)
    return {
      id: 'nodes',
      title,
      status: 'fail',
      message: `no node of cluster ${facts.cluster} can take the pod: ${nodes.length} node(s), ${skipped}`,
      fix: 'uncordon or repair a node, or add one',
    };
  return {
    id: 'nodes',
    title,
    status: 'fail',
    message: `no schedulable node of cluster ${facts.cluster} fits ${podText(
      pod,
    )}: the largest, ${largest.name}, has cpu ${formatQuantity(
      largest.cpu,
      false,
    )} and memory ${formatQuantity(largest.memory, true)} allocatable${
      skipped ? ` (${skipped} not schedulable)` : ''
    }`,
    fix: "lower the model's cpu/memory, or add a larger node (a node group the autoscaler can grow)",
  };
}
