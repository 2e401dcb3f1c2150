/**
 * A set of field paths, stored as a tree, with the FieldsV1 encoding used in
 * `metadata.managedFields`.
 */
import { JsonObject, isObject } from '../util/json';
import { Path, PathElement, comparePE } from './pathElement';

export class FieldSet {
  private readonly members = new Set<PathElement>();
  private readonly children = new Map<PathElement, FieldSet>();

  static empty(): FieldSet {
    return new FieldSet();
  }

  static of(paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  static fromFieldsV1(json: unknown): FieldSet {
    const s = new FieldSet();
    if (!isObject(json)) return s;
    for (const [key, value] of Object.entries(json)) {
      if (key === '.') continue;
      const child = FieldSet.fromFieldsV1(value);
      const isMember =
        !isObject(value) || Object.keys(value).length === 0 || '.' in value;
      if (isMember) s.members.add(key);
      if (!child.isEmpty()) s.children.set(key, child);
    }
    return s;
  }

  insert(path: Path): void {
    if (path.length === 0) return;
    if (path.length === 1) {
      this.members.add(path[0]);
      return;
    }
    let child = this.children.get(path[0]);
    if (!child) {
      child = new FieldSet();
      this.children.set(path[0], child);
    }
    child.insert(path.slice(1));
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    if (path.length === 1) return this.members.has(path[0]);
    return this.children.get(path[0])?.has(path.slice(1)) ?? false;
  }

  /** True when `path` or any path below it is in the set. */
  hasPrefix(path: Path): boolean {
    if (path.length === 0) return !this.isEmpty();
    if (path.length === 1 && this.members.has(path[0])) return true;
    const child = this.children.get(path[0]);
    return child ? child.hasPrefix(path.slice(1)) : false;
  }

  child(pe: PathElement): FieldSet | undefined {
    return this.children.get(pe);
  }

  isEmpty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.isEmpty()) return false;
    return true;
  }

  clone(): FieldSet {
    return this.union(FieldSet.empty());
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) out.members.add(m);
    for (const m of other.members) out.members.add(m);
    const keys = new Set([...this.children.keys(), ...other.children.keys()]);
    for (const k of keys) {
      const a = this.children.get(k) ?? FieldSet.empty();
      const b = other.children.get(k) ?? FieldSet.empty();
      const merged = a.union(b);
      if (!merged.isEmpty()) out.children.set(k, merged);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (other.members.has(m)) out.members.add(m);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      if (!o) continue;
      const i = c.intersection(o);
      if (!i.isEmpty()) out.children.set(k, i);
    }
    return out;
  }

  /** Paths of this set that are not in `other` (exact paths only). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (!other.members.has(m)) out.members.add(m);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      const d = o ? c.difference(o) : c.clone();
      if (!d.isEmpty()) out.children.set(k, d);
    }
    return out;
  }

  /** Like difference, but also drops everything below a path that is in `other`. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (!other.members.has(m)) out.members.add(m);
    for (const [k, c] of this.children) {
      if (other.members.has(k)) continue;
      const o = other.children.get(k);
      const d = o ? c.recursiveDifference(o) : c.clone();
      if (!d.isEmpty()) out.children.set(k, d);
    }
    return out;
  }

  /** Only the paths at or below the top-level element `pe`. */
  select(pe: PathElement): FieldSet {
    const out = new FieldSet();
    if (this.members.has(pe)) out.members.add(pe);
    const child = this.children.get(pe);
    if (child && !child.isEmpty()) out.children.set(pe, child.clone());
    return out;
  }

  /** Every path in the set: members of a level first, then each child subtree, sorted. */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const m of [...this.members].sort(comparePE)) out.push([...prefix, m]);
    for (const k of [...this.children.keys()].sort(comparePE)) {
      out.push(...this.children.get(k)!.paths([...prefix, k]));
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).isEmpty() && other.difference(this).isEmpty();
  }

  toFieldsV1(): JsonObject {
    const out: JsonObject = {};
    const keys = new Set([...this.members, ...this.children.keys()]);
    for (const k of [...keys].sort(comparePE)) {
      const child = this.children.get(k);
      if (child && !child.isEmpty()) {
        const inner = child.toFieldsV1();
        out[k] = this.members.has(k) ? { '.': {}, ...inner } : inner;
      } else if (this.members.has(k)) {
        out[k] = {};
      }
    }
    return out;
  }
}
