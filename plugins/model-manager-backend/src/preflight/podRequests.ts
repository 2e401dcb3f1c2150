import {
  parseQuantity,
  type ResolvedServer,
} from '@model-manager/plugin-model-manager-common';

/** What the model's serving pod asks for: the resolved cpu and memory, as requests and limits. */
export interface PodRequests {
  cpu: { text: string; value: number };
  memory: { text: string; value: number };
}

/**
 * The serving pod's requests and limits. Our templates set the resolved cpu and memory as both the
 * request and the limit of the serving container (runtimes/templates/*.yaml); KServe's own
 * containers (storage initializer, queue proxy) are not counted. Undefined when a value is not a
 * quantity (the resolver reports that).
 */
export function podRequests(server: ResolvedServer): PodRequests | undefined {
  const cpu = parseQuantity(server.resources.cpu.value);
  const memory = parseQuantity(server.resources.memory.value);
  if (cpu === undefined || memory === undefined) return undefined;
  return {
    cpu: { text: String(server.resources.cpu.value), value: cpu },
    memory: { text: String(server.resources.memory.value), value: memory },
  };
}

/** A quantity for messages: `4`, `500m`, `16Gi`, or the number. */
export function formatQuantity(value: number, memory: boolean): string {
  if (memory) {
    const gi = value / 2 ** 30;
    if (gi >= 1) return `${+gi.toFixed(2)}Gi`;
    return `${+(value / 2 ** 20).toFixed(2)}Mi`;
  }
  return value >= 1 || value === 0
    ? `${+value.toFixed(3)}`
    : `${Math.round(value * 1000)}m`;
}
