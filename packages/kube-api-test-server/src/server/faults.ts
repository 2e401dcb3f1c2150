/** Fault injection: error answers, latency, dropped connections and outages. */
import { FaultSpec } from '../types';

type RequestFault = Exclude<FaultSpec, { kind: 'down' }>;

interface ActiveFault {
  spec: RequestFault;
  remaining: number;
}

export class FaultInjector {
  private active: ActiveFault[] = [];
  private isDown = false;
  private readonly onDown: () => void;

  private constructor(onDown: () => void) {
    this.onDown = onDown;
  }

  /** `onDown` is called when a `down` fault is injected (to close open sockets). */
  static create(opts: { onDown: () => void }): FaultInjector {
    return new FaultInjector(opts.onDown);
  }

  /** Adds a fault. Faults are consumed in injection order; `down` lasts until {@link clear}. */
  inject(spec: FaultSpec): void {
    if (spec.kind === 'down') {
      this.isDown = true;
      this.onDown();
      return;
    }
    const times = spec.times ?? 1;
    if (!(times > 0)) throw new Error('fault times must be positive');
    this.active.push({ spec, remaining: times });
  }

  /** Removes every fault, including `down`. */
  clear(): void {
    this.active = [];
    this.isDown = false;
  }

  get down(): boolean {
    return this.isDown;
  }

  /** Pending faults (for debugging tests). */
  pending(): FaultSpec[] {
    return this.active.map(a => a.spec);
  }

  /** The fault that applies to a request, consuming one use of it. */
  take(method: string, url: string): RequestFault | undefined {
    const found = this.active.find(({ spec }) => {
      const m = spec.match;
      if (m?.method && m.method.toUpperCase() !== method.toUpperCase())
        return false;
      if (m?.pathIncludes && !url.includes(m.pathIncludes)) return false;
      return true;
    });
    if (!found) return undefined;
    found.remaining--;
    if (found.remaining <= 0)
      this.active = this.active.filter(a => a !== found);
    return found.spec;
  }
}
