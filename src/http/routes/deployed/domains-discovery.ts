/**
 * The deployed domains service's discovery rows (spec/DEPLOYED.md §7) over afp's DomainsService,
 * all reading only:
 *   public: GET /v1/domains/expiring?days=, /v1/domains/suggest?q=, /v1/domains/portfolio-value?names=
 *   bearer: GET /v1/domains/search?q=, POST /v1/domains/bulk-check { domains: [...] }
 * §7 names these paths (and which side of the authenticated router they sit on) without their
 * bodies: every field and rule below is afp's (docs/decisions/deployed-dialect.md "Domains: deployed dialect").
 * - search: `q` is a label (`agent`) or a name (`agent.ai`); the answer is that label under every
 *   sold TLD (the name's own TLD first), each with availability and yearly price.
 * - bulk-check: 1 to BULK_CHECK_MAX sold names per call, as `check` answers them; any name not
 *   sold (syntax or TLD) refuses the whole call 400 `invalid_domain`, as `check` does.
 * - expiring: names held on afp's registrar whose expiry is within `days` (1–365, default 30),
 *   soonest first, at most EXPIRING_MAX; holders are not shown (a public list).
 * - suggest: `q` (a keyword) with SUGGEST_AFFIXES around it under every sold TLD, valid names only,
 *   best valuation score first (ties by name), at most SUGGEST_MAX, each with availability, price
 *   and the NOTES.md score.
 * - portfolio-value: the NOTES.md valuation of 1 to CHECK_NAMES_MAX names (any TLD), and their sum.
 * `/v1/auctions` is not served: §7 names it and shows nothing of it.
 */
import { isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import { LABEL_LENGTH_MAX, parseRegistrableName, SUPPORTED_TLDS } from '../../../services/domains/domain-name.ts';
import type { Valuation } from '../../../services/domains/valuation.ts';
import { deployedFailure } from '../../deployed/deployed-errors.ts';
import { isoTime, moneyA } from '../../render.ts';
import type { Route, RouteContext, RouteInput } from '../../route.ts';
import { deployedRoute } from './deployed-row.ts';
import { CHECK_NAMES_MAX, parseAnyName, parseRegistrable, valuationBody } from './domains.ts';

export const BULK_CHECK_MAX = 100;
export const EXPIRING_DAYS_DEFAULT = 30;
export const EXPIRING_DAYS_MAX = 365;
export const EXPIRING_MAX = 100;
export const SUGGEST_MAX = 20;
const SUGGEST_AFFIXES: ReadonlyArray<readonly [string, string]> = [
  ['', ''],
  ['get', ''],
  ['my', ''],
  ['', 'ai'],
  ['', 'bot'],
  ['', 'hq'],
  ['', 'labs'],
  ['', 'agent'],
];
const DAY_MS = 86_400_000;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** One name as `check` answers it. */
function availabilityRow(context: RouteContext, name: string): JsonObject | Failure {
  const availability = context.platform.domains.check(name);
  if (!availability.ok) return deployedFailure(400, 'invalid_domain', availability.message);
  return {
    domain: availability.value.domain,
    available: availability.value.available,
    price_usd: moneyA(availability.value.yearlyPriceMicro),
    tld: name.slice(name.lastIndexOf('.') + 1),
    currency: 'USD',
  };
}

function rowsOf(context: RouteContext, names: readonly string[]): JsonObject[] | Failure {
  const rows: JsonObject[] = [];
  for (const name of names) {
    const row = availabilityRow(context, name);
    if (isFailure(row)) return row;
    rows.push(row);
  }
  return rows;
}

/** `q` as a label and the TLD it named, if any: `agent` → (agent, null), `agent.ai` → (agent, ai). */
export function parseSearchText(raw: string | undefined): { label: string; tld: string | null } | Failure {
  if (raw === undefined || raw.trim() === '')
    return deployedFailure(400, 'missing_query', 'q is required: ?q=agent or ?q=agent.ai');
  const text = raw.trim().toLowerCase();
  const dot = text.indexOf('.');
  const label = dot < 0 ? text : text.slice(0, dot);
  const tld = dot < 0 ? null : text.slice(dot + 1);
  if (label.length > LABEL_LENGTH_MAX || !LABEL.test(label))
    return deployedFailure(
      400,
      'invalid_query',
      `q must be a label of 1 to ${LABEL_LENGTH_MAX} letters, digits and inner hyphens, with an optional sold TLD`,
    );
  if (tld !== null && !SUPPORTED_TLDS.includes(tld))
    return deployedFailure(
      400,
      'invalid_query',
      `.${tld.slice(0, 24)} is not sold here: ${SUPPORTED_TLDS.map((one) => `.${one}`).join(', ')}`,
    );
  return { label, tld };
}

const parseQuery = (input: RouteInput): { label: string; tld: string | null } | Failure =>
  parseSearchText(input.query['q']);

/** `names=a.com,b.ai`: 1 to CHECK_NAMES_MAX syntactically valid names of any TLD. */
export function parseValueNames(raw: string | undefined): readonly string[] | Failure {
  const list =
    raw === undefined
      ? []
      : raw
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
  if (list.length === 0)
    return deployedFailure(400, 'missing_names', 'names is required: ?names=example.com,example.ai');
  if (list.length > CHECK_NAMES_MAX)
    return deployedFailure(400, 'too_many_names', `at most ${CHECK_NAMES_MAX} names per call`);
  const names: string[] = [];
  for (const entry of list) {
    const name = parseAnyName(entry, 'names');
    if (isFailure(name)) return name;
    names.push(name);
  }
  return names;
}

const search = deployedRoute<{ label: string; tld: string | null }, { query: string; rows: readonly JsonObject[] }>({
  id: 'domains.deployed.search',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: 'A label under every sold TLD with availability and yearly price (?q=agent or ?q=agent.ai, that TLD first).',
  parse: parseQuery,
  run: (context, query) => {
    const tlds =
      query.tld === null ? SUPPORTED_TLDS : [query.tld, ...SUPPORTED_TLDS.filter((one) => one !== query.tld)];
    const rows = rowsOf(
      context,
      tlds.map((tld) => `${query.label}.${tld}`),
    );
    return isFailure(rows)
      ? rows
      : succeed({ query: query.tld === null ? query.label : `${query.label}.${query.tld}`, rows });
  },
  successStatus: 200,
  render: ({ query, rows }) => ({
    query,
    results: [...rows],
    count: rows.length,
    available_count: rows.filter((row) => row['available'] === true).length,
  }),
});

const bulkCheck = deployedRoute<readonly string[], readonly JsonObject[]>({
  id: 'domains.deployed.bulk-check',
  service: 'domains',
  style: 'deployed',
  auth: 'bearer',
  summary: `Availability and yearly price of 1 to ${BULK_CHECK_MAX} names ({ domains: ["a.com", ...] }).`,
  parse: (input) => {
    const body = input.body;
    const list =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)['domains']
        : undefined;
    if (!Array.isArray(list) || list.length === 0)
      return deployedFailure(400, 'missing_domains', 'domains is required: { "domains": ["example.com", ...] }');
    if (list.length > BULK_CHECK_MAX)
      return deployedFailure(400, 'too_many_domains', `at most ${BULK_CHECK_MAX} names per bulk check`, {
        max: BULK_CHECK_MAX,
      });
    const names: string[] = [];
    for (const entry of list) {
      const name = parseRegistrable(entry, 'domains');
      if (isFailure(name)) return name;
      names.push(name);
    }
    return names;
  },
  run: (context, names) => {
    const rows = rowsOf(context, names);
    return isFailure(rows) ? rows : succeed(rows);
  },
  successStatus: 200,
  render: (rows) => ({
    results: [...rows],
    count: rows.length,
    available_count: rows.filter((row) => row['available'] === true).length,
  }),
});

const expiring = deployedRoute<number, number>({
  id: 'domains.deployed.expiring',
  service: 'domains',
  style: 'deployed',
  auth: 'none',
  summary: `Names on this registrar expiring within ?days= (1–${EXPIRING_DAYS_MAX}, default ${EXPIRING_DAYS_DEFAULT}), soonest first (public, at most ${EXPIRING_MAX}).`,
  parse: (input) => {
    const text = input.query['days'];
    const days = text === undefined ? EXPIRING_DAYS_DEFAULT : /^\d{1,3}$/.test(text) ? Number(text) : -1;
    return days >= 1 && days <= EXPIRING_DAYS_MAX
      ? days
      : deployedFailure(400, 'invalid_days', `days must be a whole number from 1 to ${EXPIRING_DAYS_MAX}`);
  },
  run: (_context, days) => succeed(days),
  successStatus: 200,
  render: (days, context) => {
    const untilMs = context.nowMs + days * DAY_MS;
    const soon = context.platform.domains
      .all()
      .filter((domain) => domain.status === 'active' && domain.expiresAtMs <= untilMs);
    soon.sort((a, b) => a.expiresAtMs - b.expiresAtMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const shown = soon.slice(0, EXPIRING_MAX).map((domain) => ({
      domain: domain.name,
      expires_at: isoTime(domain.expiresAtMs),
      days_left: Math.max(0, Math.floor((domain.expiresAtMs - context.nowMs) / DAY_MS)),
      status: domain.status,
    }));
    return { domains: shown, count: shown.length, total: soon.length, days };
  },
});

const suggest = deployedRoute<string, { keyword: string; rows: readonly JsonObject[] }>({
  id: 'domains.deployed.suggest',
  service: 'domains',
  style: 'deployed',
  auth: 'none',
  summary: `Up to ${SUGGEST_MAX} names built on a keyword (?q=), best valuation first, with availability and price (public).`,
  parse: (input) => {
    const query = parseQuery(input);
    return isFailure(query) ? query : query.label;
  },
  run: (context, keyword) => {
    const scored: Array<{ row: JsonObject; scoreCenti: number; name: string }> = [];
    for (const [before, after] of SUGGEST_AFFIXES) {
      const label = `${before}${keyword}${after}`;
      for (const tld of SUPPORTED_TLDS) {
        const name = `${label}.${tld}`;
        if (label.length > LABEL_LENGTH_MAX || isFailure(parseRegistrableName(name))) continue;
        const row = availabilityRow(context, name);
        const valuation = context.platform.domains.valuation(name);
        if (isFailure(row) || !valuation.ok) continue;
        scored.push({
          row: {
            ...row,
            score: valuation.value.scoreCenti / 100,
            estimated_value_usd: moneyA(valuation.value.valueMicro),
          },
          scoreCenti: valuation.value.scoreCenti,
          name,
        });
      }
    }
    scored.sort((a, b) => b.scoreCenti - a.scoreCenti || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return succeed({ keyword, rows: scored.slice(0, SUGGEST_MAX).map((one) => one.row) });
  },
  successStatus: 200,
  render: ({ keyword, rows }) => ({ keyword, suggestions: [...rows], count: rows.length }),
});

const portfolioValue = deployedRoute<readonly string[], readonly Valuation[]>({
  id: 'domains.deployed.portfolio-value',
  service: 'domains',
  style: 'deployed',
  auth: 'none',
  summary: `The NOTES.md valuation of 1 to ${CHECK_NAMES_MAX} names (?names=a.com,b.ai) and their sum (public).`,
  parse: (input) => parseValueNames(input.query['names']),
  run: (context, names) => {
    const valuations: Valuation[] = [];
    for (const name of names) {
      const valued = context.platform.domains.valuation(name);
      if (!valued.ok) return deployedFailure(400, 'invalid_domain', valued.message);
      valuations.push(valued.value);
    }
    return succeed(valuations);
  },
  successStatus: 200,
  render: (valuations) => ({
    domains: valuations.map(valuationBody),
    count: valuations.length,
    total_estimated_value_usd: moneyA(valuations.reduce((sum, one) => sum + one.valueMicro, 0n)),
    total_floor_price_usd: moneyA(valuations.reduce((sum, one) => sum + one.floorMicro, 0n)),
  }),
});

export const deployedDomainsDiscoveryRoutes: readonly Route[] = [search, bulkCheck, expiring, suggest, portfolioValue];
