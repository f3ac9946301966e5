/**
 * DomainsService: the registrar — availability and price, registration for 1 to 10 years,
 * renewal, transfer (a gift, or a sale as an atomic swap), lookup, DNS records, valuation, and
 * expiry on the clock (spec/platform.md "Domains", spec/NOTES.md; afp's choices in
 * docs/decisions/domains.md "Domains").
 *
 * Money (one double-entry transfer per movement): a registration or renewal moves its cost
 * (yearly price × years) from the agent to fee-income, then the referrer's 15% share accrues; a
 * completed sale moves the price from the buyer to the seller in the same call that moves the
 * ownership (both or neither: every check runs before the first write).
 * Sale consent: a priced transfer by the owner is an OFFER to `to`; the buyer accepts by sending
 * the same transfer (to = itself, the same price). An offer is dropped when the owner changes,
 * the domain expires or the owner sends a new transfer.
 * Timers: 'domains.expire' at exactly expires_at (status → expired) and 'domains.release' at
 * exactly expires_at + grace (the record leaves the book). A renewal schedules new ones; a timer
 * whose instant no longer matches its record (renewed, or the name re-registered) does nothing.
 * Precedence of failures: 400 bad input, 404 unknown, 403 not allowed, 409 wrong state, 422 funds.
 * Non-goals: HTTP (route rows in src/http/routes/domains/domains.ts).
 */
import { isIP } from 'node:net';
import { assert } from '../../core/assert.ts';
import { fail, isFailure, succeed, type Failure, type Outcome } from '../../core/errors.ts';
import { FEE_INCOME, agentAccount } from '../../core/ledger.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { PlatformTimer, ServiceContext } from '../shared/context.ts';
import { accrueFeeShares } from '../shared/referral-programme.ts';
import { checkRecord, checkRecordSet, isHostname, upsertRecords, type DnsRecord } from './dns-records.ts';
import { DomainBook, type MutableDomain } from './domain-book.ts';
import { parseDomainName, parseRegistrableName, yearlyPriceMicro, type DomainName } from './domain-name.ts';
import type {
  Availability,
  DnsCommand,
  DomainCharge,
  DomainRecord,
  RegisterDomainCommand,
  RenewDomainCommand,
  TransferDomainCommand,
  TransferResult,
} from './domain-record.ts';
import type { DomainsConfig } from './domains-config.ts';
import { valueDomain, type Valuation } from './valuation.ts';

export type DomainsTimer = Extract<PlatformTimer, { kind: 'domains.expire' | 'domains.release' }>;

export const RESOLVER_LENGTH_MAX = 253;

export class DomainsService {
  private readonly context: ServiceContext;
  private readonly book = new DomainBook();

  constructor(context: ServiceContext) {
    const config = context.config.domains;
    assert(
      Number.isSafeInteger(config.yearsMin) && config.yearsMin >= 1 && config.yearsMin <= config.yearsMax,
      'domain years are a range of whole years',
    );
    assert(config.yearMs > 0 && config.graceMs >= 0, 'a year is positive, grace is not negative');
    assert(config.referralShareBps >= 0n && config.referralShareBps <= 10_000n, 'the referral share is a share');
    assert(config.domainsPerAgentMax >= 1 && config.domainsMax >= config.domainsPerAgentMax, 'domain limits are sane');
    this.context = context;
  }

  private get config(): DomainsConfig {
    return this.context.config.domains;
  }

  get size(): number {
    return this.book.size;
  }

  /** A live record by name (no access rule: checkers and reports). */
  find(name: string): DomainRecord | undefined {
    return this.book.get(name);
  }

  /** Every live record in name order (checkers and reports). */
  all(): DomainRecord[] {
    return this.book.all();
  }

  /** Null when the name and owner indexes agree (the one-owner invariant). */
  checkConsistent(): string | null {
    return this.book.checkConsistent();
  }

  check(domainText: string): Outcome<Availability> {
    const domain = parseRegistrableName(domainText);
    if (isFailure(domain)) return domain;
    const held = this.book.get(domain.name);
    return succeed({
      domain: domain.name,
      available: held === undefined,
      yearlyPriceMicro: yearlyPriceMicro(domain),
      status: held?.status ?? null,
    });
  }

  register(command: RegisterDomainCommand, nowMs: number): Outcome<DomainCharge> {
    const invalid = this.checkYears(command.years) ?? checkResolver(command.resolver);
    if (invalid !== null) return invalid;
    const domain = parseRegistrableName(command.domain);
    if (isFailure(domain)) return domain;
    const agent = this.context.agents.get(command.callerId);
    if (agent === undefined) return fail('NOT_FOUND', `agent ${command.callerId} is not registered`);
    const held = this.book.get(domain.name);
    const raced = held !== undefined && this.missesSameInstant(held, nowMs);
    if (held !== undefined && !raced) return fail('CONFLICT', `domain ${domain.name} is already registered`);
    const full =
      this.fullFor(agent.id) ??
      (this.book.size >= this.config.domainsMax
        ? fail('CONFLICT', 'the registrar holds its maximum number of domains')
        : null);
    if (full !== null) return full;
    const costMicro = yearlyPriceMicro(domain) * BigInt(command.years);
    const funds = this.checkFunds(agent.id, costMicro, `registering ${domain.name} for ${command.years} year(s)`);
    if (funds !== null) return funds;

    const id = this.context.ids.next('dom_', 16);
    const { referrerId, referralMicro } = this.charge(agent.id, costMicro, 'domains.register', id);
    // Defect domains-registration-race: the later registration overwrites the earlier (a lost update).
    if (raced) this.book.remove(domain.name);
    const expiresAtMs = nowMs + command.years * this.config.yearMs;
    const record: MutableDomain = {
      id,
      name: domain.name,
      ownerId: agent.id,
      registeredAtMs: nowMs,
      expiresAtMs,
      releaseAtMs: expiresAtMs + this.config.graceMs,
      status: 'active',
      resolver: command.resolver,
      records: [],
      offer: null,
      txHash: this.context.ids.txHash(),
    };
    this.book.add(record);
    return this.termPaid(
      'domains.registered',
      record,
      { years: command.years, costMicro, referrerId, referralMicro },
      nowMs,
    );
  }

  /** Owner only; active or in grace; never past `yearsMax` years from now. */
  renew(command: RenewDomainCommand, nowMs: number): Outcome<DomainCharge> {
    const invalid = this.checkYears(command.years);
    if (invalid !== null) return invalid;
    const record = this.owned(command.domain, command.callerId, 'renew');
    if (isFailure(record)) return record;
    const expiresAtMs = record.expiresAtMs + command.years * this.config.yearMs;
    const horizonMs = nowMs + this.config.yearsMax * this.config.yearMs;
    if (expiresAtMs > horizonMs)
      return fail(
        'CONFLICT',
        `renewing ${record.name} by ${command.years} year(s) would end past ${this.config.yearsMax} years from now`,
      );
    const costMicro = yearlyPriceMicro(registrable(record.name)) * BigInt(command.years);
    const funds = this.checkFunds(record.ownerId, costMicro, `renewing ${record.name} for ${command.years} year(s)`);
    if (funds !== null) return funds;

    const { referrerId, referralMicro } = this.charge(record.ownerId, costMicro, 'domains.renew', record.id);
    record.expiresAtMs = expiresAtMs;
    record.releaseAtMs = expiresAtMs + this.config.graceMs;
    record.status = 'active';
    record.txHash = this.context.ids.txHash();
    return this.termPaid(
      'domains.renewed',
      record,
      { years: command.years, costMicro, referrerId, referralMicro },
      nowMs,
    );
  }

  /** A paid term (registration or renewal) of a record already updated: its timers, its event, the answer. */
  private termPaid(
    type: 'domains.registered' | 'domains.renewed',
    record: MutableDomain,
    paid: { years: number; costMicro: Micro; referrerId: string | null; referralMicro: Micro },
    nowMs: number,
  ): Outcome<DomainCharge> {
    this.scheduleTimers(record);
    this.context.emit({
      type,
      atMs: nowMs,
      domainId: record.id,
      domain: record.name,
      ownerId: record.ownerId,
      ...paid,
      expiresAtMs: record.expiresAtMs,
    });
    return succeed({ domain: record, years: paid.years, costMicro: paid.costMicro, txHash: record.txHash });
  }

  /**
   * The owner: without a price, the domain moves to `to` at once; with a price, an offer to `to`
   * (replacing any earlier offer). The offer's buyer: the same transfer (to = itself, the same
   * price) completes the sale — price to the seller and ownership to the buyer, together.
   */
  transfer(command: TransferDomainCommand, nowMs: number): Outcome<TransferResult> {
    if (
      command.priceMicro !== null &&
      (command.priceMicro <= 0n || command.priceMicro > this.config.offerPriceMaxMicro)
    ) {
      return fail('BAD_REQUEST', `price must be above 0 and at most ${formatDecimal(this.config.offerPriceMaxMicro)}`);
    }
    const domain = parseRegistrableName(command.domain);
    if (isFailure(domain)) return domain;
    const record = this.book.get(domain.name);
    if (record === undefined) return fail('NOT_FOUND', `domain ${domain.name} is not registered`);
    const target = this.context.agents.resolve(command.to);
    if (target === undefined) return fail('NOT_FOUND', `recipient ${command.to} is not a registered agent`);
    if (record.ownerId === command.callerId) return this.ownerTransfer(record, target.id, command.priceMicro, nowMs);
    return this.acceptOffer(record, command.callerId, target.id, command.priceMicro, nowMs);
  }

  /** Owner only; active only. Upserts record sets (dns-records.ts); all or nothing. */
  setDns(command: DnsCommand): Outcome<DomainRecord> {
    for (const record of command.records) {
      const invalid = checkRecord(record);
      if (invalid !== null) return invalid;
    }
    const record = this.owned(command.domain, command.callerId, 'change the DNS records of');
    if (isFailure(record)) return record;
    if (record.status !== 'active')
      return fail('CONFLICT', `domain ${record.name} has expired: renew it before changing its DNS records`);
    const merged = upsertRecords(record.records, command.records);
    if (isFailure(merged)) return merged;
    record.records = merged;
    return succeed(record);
  }

  /**
   * Owner only; active only. Replaces the one record equal to `old` by `next` in place, or removes
   * it (`next` null): the deployment's PUT/DELETE of one record (src/http/routes/deployed/domains.ts).
   * 404 when no such record; all or nothing.
   */
  editDnsRecord(command: {
    readonly callerId: string;
    readonly domain: string;
    readonly old: DnsRecord;
    readonly next: DnsRecord | null;
  }): Outcome<DomainRecord> {
    if (command.next !== null) {
      const invalid = checkRecord(command.next);
      if (invalid !== null) return invalid;
    }
    const record = this.owned(command.domain, command.callerId, 'change the DNS records of');
    if (isFailure(record)) return record;
    if (record.status !== 'active')
      return fail('CONFLICT', `domain ${record.name} has expired: renew it before changing its DNS records`);
    const old = command.old;
    const index = record.records.findIndex(
      (one) => one.type === old.type && one.host === old.host && one.value === old.value,
    );
    if (index < 0) return fail('NOT_FOUND', `domain ${record.name} has no such DNS record`);
    const edited = record.records.flatMap((one, at) =>
      at !== index ? [one] : command.next === null ? [] : [command.next],
    );
    const invalid = checkRecordSet(edited);
    if (invalid !== null) return invalid;
    record.records = edited;
    return succeed(record);
  }

  /** Public (any authenticated agent): WHOIS and DNS are public. 404 when the name is not held. */
  lookup(domainText: string): Outcome<DomainRecord> {
    const domain = parseRegistrableName(domainText);
    if (isFailure(domain)) return domain;
    const record = this.book.get(domain.name);
    return record === undefined ? fail('NOT_FOUND', `domain ${domain.name} is not registered`) : succeed(record);
  }

  /** The caller's domains (active and in grace), sorted by name; at most domainsPerAgentMax. */
  list(callerId: string): DomainRecord[] {
    return this.book.ownedBy(callerId);
  }

  /** Any syntactically valid name (any TLD), held or not. */
  valuation(domainText: string): Outcome<Valuation> {
    const domain = parseDomainName(domainText);
    return isFailure(domain) ? domain : succeed(valueDomain(domain));
  }

  /** Defect domains-registration-race: a name registered in this same millisecond reads as free. */
  private missesSameInstant(held: MutableDomain, nowMs: number): boolean {
    return (
      this.context.defects.has('domains-registration-race') && held.status === 'active' && held.registeredAtMs === nowMs
    );
  }

  /** Runs a domains timer at its exact instant; a timer whose record moved on does nothing. */
  onTimer(timer: DomainsTimer, atMs: number): void {
    const record = this.book.get(timer.domain);
    if (record === undefined || record.id !== timer.domainId) return;
    switch (timer.kind) {
      case 'domains.expire':
        if (record.status !== 'active' || record.expiresAtMs !== timer.atMs) return;
        assert(atMs === record.expiresAtMs, 'expiry runs at exactly expires_at');
        record.status = 'expired';
        record.offer = null;
        this.context.emit({
          type: 'domains.expired',
          atMs,
          domainId: record.id,
          domain: record.name,
          ownerId: record.ownerId,
          expiresAtMs: record.expiresAtMs,
        });
        return;
      case 'domains.release':
        if (record.status !== 'expired' || record.releaseAtMs !== timer.atMs) return;
        assert(atMs === record.releaseAtMs, 'release runs at exactly the end of grace');
        this.book.remove(record.name);
        this.context.emit({
          type: 'domains.released',
          atMs,
          domainId: record.id,
          domain: record.name,
          ownerId: record.ownerId,
          releaseAtMs: record.releaseAtMs,
        });
        return;
    }
  }

  private ownerTransfer(
    record: MutableDomain,
    toId: string,
    priceMicro: Micro | null,
    nowMs: number,
  ): Outcome<TransferResult> {
    if (toId === record.ownerId) return fail('BAD_REQUEST', 'to must be an agent other than the owner');
    if (record.status !== 'active')
      return fail('CONFLICT', `domain ${record.name} has expired: renew it before transferring it`);
    const fromId = record.ownerId;
    if (priceMicro !== null) {
      record.offer = { buyerId: toId, priceMicro, offeredAtMs: nowMs };
      this.context.emit({
        type: 'domains.offered',
        atMs: nowMs,
        domainId: record.id,
        domain: record.name,
        ownerId: fromId,
        buyerId: toId,
        priceMicro,
      });
      return succeed({ kind: 'offered', domain: record, fromId, toId, priceMicro });
    }
    const full = this.fullFor(toId);
    if (full !== null) return full;
    this.moveOwner(record, toId, null, nowMs);
    return succeed({ kind: 'transferred', domain: record, fromId, toId, priceMicro: null, txHash: record.txHash });
  }

  private acceptOffer(
    record: MutableDomain,
    callerId: string,
    toId: string,
    priceMicro: Micro | null,
    nowMs: number,
  ): Outcome<TransferResult> {
    const offer = record.offer;
    if (toId !== callerId || offer === null || offer.buyerId !== callerId) {
      return fail(
        'FORBIDDEN',
        `only the owner may transfer ${record.name}, or the buyer it offered it to may accept (to = yourself, the offered price)`,
      );
    }
    if (record.status !== 'active') return fail('CONFLICT', `domain ${record.name} has expired`);
    if (priceMicro !== offer.priceMicro)
      return fail('CONFLICT', `price must equal the offered price ${formatDecimal(offer.priceMicro)}`);
    const full = this.fullFor(callerId);
    if (full !== null) return full;
    const funds = this.checkFunds(callerId, offer.priceMicro, `buying ${record.name}`);
    const unpaid = funds !== null && this.context.defects.has('domains-sale-unpaid');
    if (funds !== null && !unpaid) return funds;
    const fromId = record.ownerId;
    if (!unpaid)
      this.context.ledger.transfer({
        from: agentAccount(callerId),
        to: agentAccount(fromId),
        amountMicro: offer.priceMicro,
        reason: 'domains.sale',
        reference: record.id,
      });
    this.moveOwner(record, callerId, offer.priceMicro, nowMs);
    return succeed({
      kind: 'transferred',
      domain: record,
      fromId,
      toId: callerId,
      priceMicro: offer.priceMicro,
      txHash: record.txHash,
    });
  }

  private moveOwner(record: MutableDomain, toId: string, priceMicro: Micro | null, nowMs: number): void {
    const fromId = record.ownerId;
    this.book.changeOwner(record, toId);
    record.offer = null;
    record.txHash = this.context.ids.txHash();
    this.context.emit({
      type: 'domains.transferred',
      atMs: nowMs,
      domainId: record.id,
      domain: record.name,
      fromId,
      toId,
      priceMicro,
    });
  }

  /** 400 for a bad name, 404 when not held, 403 when the caller is not the owner. */
  private owned(domainText: string, callerId: string, action: string): MutableDomain | Failure {
    const domain = parseRegistrableName(domainText);
    if (isFailure(domain)) return domain;
    const record = this.book.get(domain.name);
    if (record === undefined) return fail('NOT_FOUND', `domain ${domain.name} is not registered`);
    if (record.ownerId !== callerId) return fail('FORBIDDEN', `only the owner may ${action} ${domain.name}`);
    return record;
  }

  private checkYears(years: number): Failure | null {
    const { yearsMin, yearsMax } = this.config;
    if (!Number.isSafeInteger(years) || years < yearsMin || years > yearsMax)
      return fail('BAD_REQUEST', `years must be a whole number between ${yearsMin} and ${yearsMax}`);
    return null;
  }

  private fullFor(agentId: string): Failure | null {
    const max = this.config.domainsPerAgentMax;
    return this.book.countOf(agentId) >= max
      ? fail('CONFLICT', `agent ${agentId} already holds the maximum of ${max} domains`)
      : null;
  }

  private checkFunds(agentId: string, amountMicro: Micro, what: string): Failure | null {
    const available = this.context.ledger.balance(agentAccount(agentId));
    return available < amountMicro
      ? fail(
          'INSUFFICIENT_BALANCE',
          `balance ${formatDecimal(available)} is below ${formatDecimal(amountMicro)} for ${what}`,
        )
      : null;
  }

  /** The domain fee to fee-income, then the registration referrer's share. */
  private charge(
    agentId: string,
    costMicro: Micro,
    reason: string,
    reference: string,
  ): { referrerId: string | null; referralMicro: Micro } {
    this.context.ledger.transfer({
      from: agentAccount(agentId),
      to: FEE_INCOME,
      amountMicro: costMicro,
      reason,
      reference,
    });
    const referrerId = this.context.agents.get(agentId)?.referrerId ?? null;
    if (referrerId === null || referrerId === agentId) return { referrerId: null, referralMicro: 0n };
    const referralMicro =
      accrueFeeShares(this.context, { service: 'domains', payerId: agentId, feeMicro: costMicro, reference })[0] ?? 0n;
    return { referrerId, referralMicro };
  }

  private scheduleTimers(record: MutableDomain): void {
    this.context.timers.schedule(record.expiresAtMs, {
      kind: 'domains.expire',
      domainId: record.id,
      domain: record.name,
      atMs: record.expiresAtMs,
    });
    this.context.timers.schedule(record.releaseAtMs, {
      kind: 'domains.release',
      domainId: record.id,
      domain: record.name,
      atMs: record.releaseAtMs,
    });
  }
}

/** A held record's name, parsed again (held names are registrable by construction). */
function registrable(name: string): DomainName {
  const parsed = parseRegistrableName(name);
  assert(!isFailure(parsed), 'a held name is registrable');
  return parsed;
}

/** Optional resolver: a host name or an IP address. */
function checkResolver(resolver: string | null): Failure | null {
  if (resolver === null) return null;
  if (resolver.length === 0 || resolver.length > RESOLVER_LENGTH_MAX)
    return fail('BAD_REQUEST', `resolver must be 1 to ${RESOLVER_LENGTH_MAX} characters`);
  if (isIP(resolver) !== 0 || isHostname(resolver.toLowerCase())) return null;
  return fail('BAD_REQUEST', `resolver must be a host name (ns1.example.com) or an IP address, got '${resolver}'`);
}
