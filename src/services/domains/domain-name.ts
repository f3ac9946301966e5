/**
 * Domain names: the one syntax every domains endpoint accepts, and the registrar's price table.
 *
 * Why a file of its own: the check, register, renew, transfer, lookup, DNS and valuation inputs all
 * name a domain, and they must agree on what a name is. A name is `<label>.<tld>`, compared in
 * lowercase (DNS names are case-insensitive): the label is 1 to 63 characters of a-z, 0-9 and '-',
 * not starting or ending with '-'; the TLD is 2 to 24 letters. Only second-level names are
 * registered (no subdomains: those are DNS record names). Registration needs a TLD of the price
 * table (spec/NOTES.md "Domains": the older registrar table); valuation takes any TLD.
 */
import { assert } from '../../core/assert.ts';
import { fail, isFailure, type Failure } from '../../core/errors.ts';
import type { Micro } from '../../core/money.ts';

export const LABEL_LENGTH_MAX = 63;
export const TLD_LENGTH_MAX = 24;
/** Longest text accepted where a domain is expected (label + '.' + TLD). */
export const DOMAIN_TEXT_MAX = LABEL_LENGTH_MAX + 1 + TLD_LENGTH_MAX;

/** Yearly prices in micro-USDC (spec/NOTES.md "Domains"). */
export const YEARLY_PRICE_MICRO: Readonly<Record<string, Micro>> = {
  com: 18_000_000n,
  net: 18_000_000n,
  org: 18_000_000n,
  io: 54_000_000n,
  ai: 102_000_000n,
  co: 36_000_000n,
  xyz: 14_400_000n,
  app: 24_000_000n,
  dev: 18_000_000n,
  me: 24_000_000n,
  tech: 42_000_000n,
  info: 18_000_000n,
};

export const SUPPORTED_TLDS: readonly string[] = Object.keys(YEARLY_PRICE_MICRO);

export interface DomainName {
  /** The whole name, lowercase (`example.com`). */
  readonly name: string;
  readonly label: string;
  readonly tld: string;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TLD = /^[a-z]{2,24}$/;

/** Parses any syntactically valid second-level name (valuation accepts every TLD). */
export function parseDomainName(value: string, field = 'domain'): DomainName | Failure {
  if (value.length === 0) return fail('BAD_REQUEST', `${field} must not be empty`);
  if (value.length > DOMAIN_TEXT_MAX)
    return fail('BAD_REQUEST', `${field} is longer than ${DOMAIN_TEXT_MAX} characters`);
  const name = value.toLowerCase();
  const dot = name.indexOf('.');
  if (dot < 0 || dot !== name.lastIndexOf('.'))
    return fail('BAD_REQUEST', `${field} must be a second-level name <label>.<tld> (one dot), got '${value}'`);
  const label = name.slice(0, dot);
  const tld = name.slice(dot + 1);
  if (!LABEL.test(label))
    return fail(
      'BAD_REQUEST',
      `${field} label must be 1 to ${LABEL_LENGTH_MAX} characters of a-z, 0-9 and '-', not starting or ending with '-'`,
    );
  if (!TLD.test(tld)) return fail('BAD_REQUEST', `${field} TLD must be 2 to ${TLD_LENGTH_MAX} letters`);
  return { name, label, tld };
}

/** Parses a name the registrar sells: valid syntax and a TLD of the price table. */
export function parseRegistrableName(value: string, field = 'domain'): DomainName | Failure {
  const parsed = parseDomainName(value, field);
  if (isFailure(parsed)) return parsed;
  if (YEARLY_PRICE_MICRO[parsed.tld] === undefined)
    return fail('BAD_REQUEST', `TLD .${parsed.tld} is not offered; offered: ${SUPPORTED_TLDS.join(', ')}`);
  return parsed;
}

/** The yearly price of a registrable name's TLD. */
export function yearlyPriceMicro(domain: DomainName): Micro {
  const price = YEARLY_PRICE_MICRO[domain.tld];
  assert(price !== undefined, `a registrable name has a priced TLD (.${domain.tld})`);
  return price;
}
