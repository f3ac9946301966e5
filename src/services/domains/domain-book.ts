/**
 * DomainBook: the domains service's storage — the live records by name (active and in grace) and
 * each owner's names. A released record leaves the book; its name is then free.
 *
 * Invariants: a name maps to one record; each record's name is in exactly its owner's set (so a
 * domain has exactly one owner); `checkConsistent` walks both maps (the domains-one-owner
 * invariant). Lists are sorted by name (a total order: the same in every run).
 * Limits: the service bounds the sizes (config.domains.domainsPerAgentMax, domainsMax).
 */
import { assert } from '../../core/assert.ts';
import type { DomainRecord } from './domain-record.ts';

export type MutableDomain = { -readonly [K in keyof DomainRecord]: DomainRecord[K] };

export class DomainBook {
  private readonly byName = new Map<string, MutableDomain>();
  private readonly byOwner = new Map<string, Set<string>>();

  get size(): number {
    return this.byName.size;
  }

  get(name: string): MutableDomain | undefined {
    return this.byName.get(name);
  }

  countOf(ownerId: string): number {
    return this.byOwner.get(ownerId)?.size ?? 0;
  }

  add(domain: MutableDomain): void {
    assert(!this.byName.has(domain.name), 'one record per name');
    this.byName.set(domain.name, domain);
    this.link(domain.ownerId, domain.name);
  }

  remove(name: string): void {
    const domain = this.byName.get(name);
    assert(domain !== undefined, 'only a held name is removed');
    this.byName.delete(name);
    this.unlink(domain.ownerId, name);
  }

  changeOwner(domain: MutableDomain, toId: string): void {
    assert(this.byName.get(domain.name) === domain, 'the record is the held one');
    this.unlink(domain.ownerId, domain.name);
    domain.ownerId = toId;
    this.link(toId, domain.name);
  }

  /** An owner's records, sorted by name. */
  ownedBy(ownerId: string): DomainRecord[] {
    const names = this.byOwner.get(ownerId);
    if (names === undefined) return [];
    return [...names].sort().map((name) => this.byName.get(name) as DomainRecord);
  }

  /** Every live record in name order (checkers and reports). */
  all(): DomainRecord[] {
    return [...this.byName.keys()].sort().map((name) => this.byName.get(name) as DomainRecord);
  }

  /** A description of the first disagreement between the two maps, or null when they agree. */
  checkConsistent(): string | null {
    let linked = 0;
    for (const [ownerId, names] of this.byOwner) {
      for (const name of names) {
        const domain = this.byName.get(name);
        if (domain === undefined) return `owner ${ownerId} lists ${name}, which is not held`;
        if (domain.ownerId !== ownerId) return `${name} is listed under ${ownerId} but owned by ${domain.ownerId}`;
        linked++;
      }
    }
    return linked === this.byName.size ? null : `${this.byName.size} domains held but ${linked} owner links`;
  }

  private link(ownerId: string, name: string): void {
    const names = this.byOwner.get(ownerId);
    if (names === undefined) this.byOwner.set(ownerId, new Set([name]));
    else names.add(name);
  }

  private unlink(ownerId: string, name: string): void {
    const names = this.byOwner.get(ownerId);
    assert(names !== undefined && names.delete(name), 'the owner held the name');
    if (names.size === 0) this.byOwner.delete(ownerId);
  }
}
