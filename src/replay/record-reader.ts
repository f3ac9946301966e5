/**
 * Record validation: the header and each exchange line of an `afp-record/1` file, checked
 * strictly (unknown keys, wrong types, seq gaps, time running backwards, provenance pointing
 * forward) with every problem reported by line number. Pure: the caller reads the lines.
 *
 * Limits: a line longer than `READ_LINE_CHARS_MAX` is refused without parsing; the caller stops
 * collecting after `ERRORS_MAX` errors and says how many more there were.
 */
import { SERVICE_NAMES } from '../platform/platform.ts';
import { CLOSURES_MAX } from '../services/casino/closure-schedule.ts';
import { GAME_IDS } from '../services/casino/games/game.ts';
import { TRADING_LIMITS } from '../services/trading/trading-record.ts';
import { isObject } from './json-pointer.ts';
import {
  RECORD_DEPOSITS_MAX,
  RECORD_FAULTS_MAX,
  RECORD_FORMAT,
  RECORD_MINTS_MAX,
  RECORD_TIERS_MAX,
  type ProvenanceEntry,
  type RecordHeader,
  type RecordedExchange,
  type RecordedRequest,
  type RecordedResponse,
} from './record-format.ts';
import { isSiteName } from './request-sites.ts';

export const READ_LINE_CHARS_MAX = 16 * 1024 * 1024;
export const ERRORS_MAX = 50;
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
const HEADER_KEYS = [
  'format',
  'scenario',
  'seed',
  'start_ms',
  'end_ms',
  'exchanges',
  'complete',
  'identifier_rule',
  'platform',
  'dropped',
  'tiers',
  'deposits',
  'mints',
];
const MINT_KEYS = ['after_seq', 'chain', 'address', 'amount', 'token'];
const PLATFORM_KEYS = [
  'dispute_outcome',
  'faults',
  'casino_closures',
  'trading_shocks',
  'market_closures',
  'domain_year_ms',
  'domain_grace_ms',
];
const CLOSURE_KEYS = ['game', 'from_ms', 'until_ms'];
const SHOCK_KEYS = ['base', 'at_ms', 'move_bps'];
const MARKET_CLOSURE_KEYS = ['symbol', 'from_ms', 'until_ms'];
/** An asset (`BTC`) or a market (`BTC-PERP`, `ETH-USDC`, or '*': every market) as a scenario names it. */
const MARKET_NAME = /^(?:\*|[A-Za-z0-9][A-Za-z0-9._-]{0,39})$/;
const FAULT_KEYS = ['service', 'from_ms', 'until_ms', 'status'];
const AGENT_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const DROPPED_KEYS = ['exchanges', 'index_values', 'bodies', 'sites'];
const EXCHANGE_KEYS = ['seq', 'at_ms', 'agent', 'request', 'response', 'provenance', 'introduced'];
const REQUEST_KEYS = ['mount', 'method', 'path', 'query', 'headers', 'body', 'raw_body'];
const RESPONSE_KEYS = ['status', 'headers', 'body', 'body_dropped'];

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errors: readonly string[] };

/** Problems are collected, not thrown: `problems.push(...)` per field, all reported together. */
class Problems {
  readonly list: string[] = [];
  readonly where: string;
  constructor(where: string) {
    this.where = where;
  }
  add(message: string): void {
    this.list.push(`${this.where}: ${message}`);
  }
  unknownKeys(value: Record<string, unknown>, allowed: readonly string[], what: string): void {
    const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
    if (unknown.length > 0)
      this.add(`${what} has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.sort().join(', ')}`);
  }
  /**
   * A list of at most `limit.max` objects with `keys`, each checked by `check` under `path[i]`;
   * false (one problem, no item checked) when it is no list or too long.
   */
  objects(
    list: unknown,
    path: string,
    limit: { readonly max: number; readonly what: string },
    keys: readonly string[],
    check: (item: Record<string, unknown>, where: string) => void,
  ): boolean {
    if (!Array.isArray(list) || list.length > limit.max) {
      this.add(`${path} must be a list of at most ${limit.max} ${limit.what}`);
      return false;
    }
    list.forEach((item: unknown, index) => {
      const where = `${path}[${index}]`;
      if (!isObject(item)) return this.add(`${where} must be { ${keys.join(', ')} }`);
      this.unknownKeys(item, keys, where);
      check(item, where);
    });
    return true;
  }
  /** A window's `from_ms` and `until_ms`: integers, 0 ≤ from_ms < until_ms. */
  window(item: Record<string, unknown>, where: string): void {
    if (!isCount(item['from_ms']) || !isCount(item['until_ms']) || item['until_ms'] <= item['from_ms'])
      this.add(`${where} must have integers 0 ≤ from_ms < until_ms`);
  }
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function parseLine(text: string, problems: Problems): Record<string, unknown> | null {
  if (text.length > READ_LINE_CHARS_MAX) {
    problems.add(`line is longer than ${READ_LINE_CHARS_MAX} characters`);
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.add(`not JSON (${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
  if (!isObject(value)) {
    problems.add('not a JSON object');
    return null;
  }
  return value;
}

export function parseRecordHeader(text: string): Parsed<RecordHeader> {
  const problems = new Problems('line 1 (header)');
  const value = parseLine(text, problems);
  if (value === null) return { ok: false, errors: problems.list };
  if (value['format'] !== RECORD_FORMAT) {
    problems.add(`format is ${JSON.stringify(value['format'])}; this afp reads '${RECORD_FORMAT}'`);
    return { ok: false, errors: problems.list };
  }
  problems.unknownKeys(value, HEADER_KEYS, 'header');
  if (typeof value['scenario'] !== 'string') problems.add('scenario must be a string');
  if (typeof value['seed'] !== 'string' && !Number.isSafeInteger(value['seed'])) problems.add('seed must be a string');
  if (!isCount(value['start_ms'])) problems.add('start_ms must be a non-negative integer');
  if (!isCount(value['end_ms']) || (isCount(value['start_ms']) && value['end_ms'] < value['start_ms']))
    problems.add('end_ms must be an integer ≥ start_ms');
  if (!isCount(value['exchanges'])) problems.add('exchanges must be a non-negative integer');
  if (typeof value['complete'] !== 'boolean') problems.add('complete must be a boolean');
  if (typeof value['identifier_rule'] !== 'string') problems.add('identifier_rule must be a string');
  const dropped = value['dropped'];
  if (!isObject(dropped) || DROPPED_KEYS.some((key) => !isCount(dropped[key])))
    problems.add(`dropped must be { ${DROPPED_KEYS.join(', ')} } of non-negative integers`);
  if (value['platform'] !== undefined) checkPlatform(value['platform'], problems);
  if (value['tiers'] !== undefined) checkTiers(value['tiers'], problems);
  if (value['deposits'] !== undefined) checkDeposits(value['deposits'], problems);
  if (value['mints'] !== undefined)
    checkMints(value['mints'], isCount(value['exchanges']) ? value['exchanges'] : 0, problems);
  if (problems.list.length > 0) return { ok: false, errors: problems.list };
  return { ok: true, value: { ...(value as unknown as RecordHeader), seed: String(value['seed']) } };
}

/** The optional `platform` header field: { dispute_outcome, faults: [{ service, from_ms, until_ms, status }] }. */
function checkPlatform(platform: unknown, problems: Problems): void {
  if (!isObject(platform)) return problems.add('platform must be { dispute_outcome, faults }');
  problems.unknownKeys(platform, PLATFORM_KEYS, 'platform');
  if (platform['dispute_outcome'] !== 'refund' && platform['dispute_outcome'] !== 'release')
    problems.add("platform.dispute_outcome must be 'refund' or 'release'");
  const faultsLimit = { max: RECORD_FAULTS_MAX, what: 'fault windows' };
  const faultsListed = problems.objects(
    platform['faults'],
    'platform.faults',
    faultsLimit,
    FAULT_KEYS,
    (fault, where) => {
      if (typeof fault['service'] !== 'string' || !(SERVICE_NAMES as readonly string[]).includes(fault['service']))
        problems.add(`${where}.service must be one of ${SERVICE_NAMES.join(', ')}`);
      problems.window(fault, where);
      if (fault['status'] !== 500 && fault['status'] !== 503) problems.add(`${where}.status must be 500 or 503`);
    },
  );
  if (!faultsListed) return;
  checkCasinoClosures(platform['casino_closures'], problems);
  checkTrading(platform, problems);
  for (const key of ['domain_year_ms', 'domain_grace_ms']) {
    const value = platform[key];
    if (value !== undefined && (!isCount(value) || (key === 'domain_year_ms' && value === 0)))
      problems.add(
        `platform.${key} must be a ${key === 'domain_year_ms' ? 'positive' : 'non-negative'} integer of milliseconds`,
      );
  }
}

/** The optional `platform.casino_closures`: [{ game, from_ms, until_ms }]. */
function checkCasinoClosures(closures: unknown, problems: Problems): void {
  if (closures === undefined) return;
  const limit = { max: CLOSURES_MAX, what: 'game closures' };
  problems.objects(closures, 'platform.casino_closures', limit, CLOSURE_KEYS, (closure, where) => {
    if (typeof closure['game'] !== 'string' || !(GAME_IDS as readonly string[]).includes(closure['game']))
      problems.add(`${where}.game must be one of ${GAME_IDS.join(', ')}`);
    problems.window(closure, where);
  });
}

/** The optional `platform.trading_shocks` [{ base, at_ms, move_bps }] and `platform.market_closures` [{ symbol, from_ms, until_ms }]. */
function checkTrading(platform: Record<string, unknown>, problems: Problems): void {
  const shocks = platform['trading_shocks'];
  const shocksLimit = { max: TRADING_LIMITS.shocksMax, what: 'price shocks' };
  if (shocks !== undefined)
    problems.objects(shocks, 'platform.trading_shocks', shocksLimit, SHOCK_KEYS, (shock, where) => {
      if (typeof shock['base'] !== 'string' || !MARKET_NAME.test(shock['base']))
        problems.add(`${where}.base must be an asset name`);
      if (!isCount(shock['at_ms'])) problems.add(`${where}.at_ms must be a non-negative integer`);
      const move = shock['move_bps'];
      if (typeof move !== 'number' || !Number.isSafeInteger(move) || move <= -10_000 || move > 100_000)
        problems.add(`${where}.move_bps must be an integer above -10000 and at most 100000`);
    });
  const closures = platform['market_closures'];
  const closuresLimit = { max: TRADING_LIMITS.closuresMax, what: 'market closures' };
  if (closures !== undefined)
    problems.objects(closures, 'platform.market_closures', closuresLimit, MARKET_CLOSURE_KEYS, (closure, where) => {
      if (typeof closure['symbol'] !== 'string' || !MARKET_NAME.test(closure['symbol']))
        problems.add(`${where}.symbol must be a market symbol or '*'`);
      problems.window(closure, where);
    });
}

/** The optional `tiers` header field: agent id → 'pro' | 'enterprise'. */
function checkTiers(tiers: unknown, problems: Problems): void {
  if (!isObject(tiers)) return problems.add('tiers must be an object of agent id → tier');
  const entries = Object.entries(tiers);
  if (entries.length > RECORD_TIERS_MAX)
    return problems.add(`tiers lists ${entries.length} agents, more than ${RECORD_TIERS_MAX}`);
  const bad = entries.filter(([agentId, tier]) => !AGENT_ID.test(agentId) || (tier !== 'pro' && tier !== 'enterprise'));
  if (bad.length > 0)
    problems.add(
      `tiers must map agent ids to 'pro' or 'enterprise' (${bad.length} bad, first ${JSON.stringify(bad[0]?.[0])})`,
    );
}

/** A USDC decimal text: digits, at most 6 decimals, above zero. */
const DEPOSIT_AMOUNT = /^(?:0|[1-9][0-9]{0,11})(?:\.[0-9]{1,6})?$/;

/** The optional `deposits` header field: agent id → { chain, amount } (a positive USDC decimal text). */
function checkDeposits(deposits: unknown, problems: Problems): void {
  if (!isObject(deposits)) return problems.add('deposits must be an object of agent id → { chain, amount }');
  const entries = Object.entries(deposits);
  if (entries.length > RECORD_DEPOSITS_MAX)
    return problems.add(`deposits lists ${entries.length} agents, more than ${RECORD_DEPOSITS_MAX}`);
  const bad = entries.filter(([agentId, deposit]) => !AGENT_ID.test(agentId) || !isDeposit(deposit));
  if (bad.length > 0)
    problems.add(
      `deposits must map agent ids to { chain, amount } with a positive USDC amount text (${bad.length} bad, first ${JSON.stringify(bad[0]?.[0])})`,
    );
}

function isDeposit(value: unknown): boolean {
  if (!isObject(value) || Object.keys(value).some((key) => key !== 'chain' && key !== 'amount')) return false;
  const { chain, amount } = value;
  return (
    typeof chain === 'string' &&
    chain !== '' &&
    chain.length <= 32 &&
    typeof amount === 'string' &&
    DEPOSIT_AMOUNT.test(amount) &&
    /[1-9]/.test(amount)
  );
}

/** A chain's whole-unit decimal text as a scenario's starting funds spell it. */
const MINT_AMOUNT = /^[0-9]{1,40}(?:\.[0-9]{1,40})?$/;
const MINT_TEXT_MAX = 200;

/** The optional `mints` header field: [{ after_seq, chain, address, amount, token }], after_seq never decreasing, within the exchanges. */
function checkMints(mints: unknown, exchanges: number, problems: Problems): void {
  if (!Array.isArray(mints) || mints.length > RECORD_MINTS_MAX)
    return problems.add(`mints must be a list of at most ${RECORD_MINTS_MAX} wallet mints`);
  let previous = 1;
  for (const [index, mint] of (mints as unknown[]).entries()) {
    const where = `mints[${index}]`;
    if (!isObject(mint)) return problems.add(`${where} must be { ${MINT_KEYS.join(', ')} }`);
    problems.unknownKeys(mint, MINT_KEYS, where);
    const { after_seq: afterSeq, chain, address, amount, token } = mint;
    if (!isCount(afterSeq) || afterSeq < previous || afterSeq > exchanges)
      return problems.add(
        `${where}.after_seq must be an exchange's seq (1 to ${exchanges}), never below the one before`,
      );
    previous = afterSeq;
    const text = (value: unknown): boolean =>
      typeof value === 'string' && value !== '' && value.length <= MINT_TEXT_MAX;
    if (!text(chain) || !text(address) || (token !== null && !text(token)))
      return problems.add(`${where} must have chain and address texts and a token text or null`);
    if (typeof amount !== 'string' || !MINT_AMOUNT.test(amount))
      return problems.add(`${where}.amount must be a decimal text`);
  }
}

export interface LineContext {
  readonly lineNumber: number;
  readonly expectedSeq: number;
  /** at_ms of the previous exchange (start_ms for the first). */
  readonly previousAtMs: number;
}

export function parseExchangeLine(text: string, context: LineContext): Parsed<RecordedExchange> {
  const problems = new Problems(`line ${context.lineNumber}`);
  const value = parseLine(text, problems);
  if (value === null) return { ok: false, errors: problems.list };
  problems.unknownKeys(value, EXCHANGE_KEYS, 'exchange');
  if (value['seq'] !== context.expectedSeq)
    problems.add(`seq is ${JSON.stringify(value['seq'])}, expected ${context.expectedSeq}`);
  const atMs = value['at_ms'];
  if (!isCount(atMs)) problems.add('at_ms must be a non-negative integer');
  else if (atMs < context.previousAtMs)
    problems.add(`at_ms ${atMs} is before the previous exchange's ${context.previousAtMs}`);
  if (value['agent'] !== null && typeof value['agent'] !== 'string') problems.add('agent must be a string or null');
  checkRequest(value['request'], problems);
  checkResponse(value['response'], problems);
  checkProvenance(value['provenance'], context.expectedSeq, problems);
  const introduced = value['introduced'];
  if (!Array.isArray(introduced) || introduced.some((at) => typeof at !== 'string' || !isSiteName(at)))
    problems.add('introduced must be a list of request sites');
  if (problems.list.length > 0) return { ok: false, errors: problems.list };
  return { ok: true, value: value as unknown as RecordedExchange };
}

function checkStrings(value: unknown, what: string, problems: Problems): void {
  if (!isObject(value) || Object.values(value).some((item) => typeof item !== 'string'))
    problems.add(`${what} must be an object of strings`);
}

function checkRequest(request: unknown, problems: Problems): asserts request is RecordedRequest {
  if (!isObject(request)) {
    problems.add('request must be an object');
    return;
  }
  problems.unknownKeys(request, REQUEST_KEYS, 'request');
  if (typeof request['mount'] !== 'string' || !/^[a-z]{1,32}$/.test(request['mount']))
    problems.add('request.mount must be a mount name');
  if (typeof request['method'] !== 'string' || !METHODS.includes(request['method']))
    problems.add(`request.method must be one of ${METHODS.join(', ')}`);
  if (typeof request['path'] !== 'string' || !request['path'].startsWith('/') || request['path'].length > 4096)
    problems.add('request.path must start with / (at most 4096 characters)');
  checkStrings(request['query'], 'request.query', problems);
  checkStrings(request['headers'], 'request.headers', problems);
  const raw = request['raw_body'];
  if (raw !== undefined) {
    if (request['body'] !== undefined) problems.add('request carries body and raw_body; at most one');
    if (!isObject(raw) || typeof raw['text'] !== 'string' || typeof raw['content_type'] !== 'string')
      problems.add('request.raw_body must be { text, content_type }');
  }
}

function checkResponse(response: unknown, problems: Problems): asserts response is RecordedResponse {
  if (!isObject(response)) {
    problems.add('response must be an object');
    return;
  }
  problems.unknownKeys(response, RESPONSE_KEYS, 'response');
  const status = response['status'];
  if (!Number.isSafeInteger(status) || (status as number) < 100 || (status as number) > 599)
    problems.add('response.status must be an HTTP status');
  checkStrings(response['headers'], 'response.headers', problems);
  if (!Object.hasOwn(response, 'body')) problems.add('response.body is missing');
  if (response['body_dropped'] !== undefined && response['body_dropped'] !== true)
    problems.add('response.body_dropped must be true when present');
}

function checkProvenance(
  provenance: unknown,
  seq: number,
  problems: Problems,
): asserts provenance is ProvenanceEntry[] {
  if (!Array.isArray(provenance)) {
    problems.add('provenance must be a list');
    return;
  }
  provenance.forEach((entry: unknown, index) => {
    const where = `provenance[${index}]`;
    if (!isObject(entry) || typeof entry['at'] !== 'string' || !isSiteName(entry['at']))
      return problems.add(`${where}.at must be a request site`);
    const from = entry['from'];
    if (
      !isObject(from) ||
      !Number.isSafeInteger(from['seq']) ||
      (from['seq'] as number) < 1 ||
      (from['seq'] as number) >= seq
    ) {
      return problems.add(`${where}.from.seq must name an earlier exchange`);
    }
    if (typeof from['pointer'] !== 'string' || (from['pointer'] !== '' && !from['pointer'].startsWith('/')))
      problems.add(`${where}.from.pointer must be a JSON pointer`);
    if (entry['prefix'] !== undefined && typeof entry['prefix'] !== 'string')
      problems.add(`${where}.prefix must be a string`);
  });
}
