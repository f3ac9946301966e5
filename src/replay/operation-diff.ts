/**
 * Operation diff: a recorded answer and a live one, both read as the same operation's result (the
 * recorded one through the recording's dialect, the live one through the target's), compared by
 * meaning: accepted or refused, then field by field of the result. Shape differences between the
 * dialects never reach here (the readers turned them into deviations); what remains is semantic.
 *
 * Fields: identifiers (agent ids, keys, escrow ids, addresses, referral codes) are bound, recorded
 * → live, one to one (bindings.ts), never compared for equality; amounts (bigint micro-USDC) are
 * compared exactly (`money`); other values exactly (`rule`). A value either side does not show
 * (null) is not compared: a dialect that does not say is not wrong. Lists are compared by length
 * and element by element (paired by their ids where they have one). Across two dialects, the
 * credits each style sets by its own documented rule (`DIALECT_CREDITS`: the style B registration
 * grant, its daily claims) are not compared, and a refusal of such a credit is marked documented.
 * States a dialect names otherwise (`ESCROW_STATES`) are compared as afp's; the other name is a
 * documented difference (info). Both refused is agreement, whatever the names: each dialect names
 * its errors its own way.
 * Pure; the caller turns each difference into a Finding with its evidence.
 */
import type { JsonValue } from '../core/errors.ts';
import { formatDecimal } from '../core/money.ts';
import type { OperationName, Refusal, DialectName, ReadOutcome } from '../live.ts';
import type { Bindings } from './bindings.ts';
import { isObject } from './json-pointer.ts';

export interface ResultDifference {
  readonly kind: 'money' | 'rule';
  /** `accepted`, or the result's field path (`escrows[2].status`). */
  readonly field: string;
  readonly expected: JsonValue;
  readonly seen: JsonValue;
  readonly note: string;
  /** The documented rule of the dialects that explains it (a finding of severity info), when one does. */
  readonly documented?: string;
  /** Explained by an earlier difference of the same agent (`documented` names it), not a new one. */
  readonly consequence?: true;
  /** The domain name it is about, where the result holds several (set-compare.ts). */
  readonly domain?: string;
}

/** `owner`: a domain's holder is an agent id (bound to the account of the service that answered). */
export const IDENTIFIER_FIELDS: ReadonlySet<string> = new Set([
  'agentId',
  'apiKey',
  'escrowId',
  'address',
  'referralCode',
  'betId',
  'seedHash',
  'resultHash',
  'orderId',
  'positionId',
  'domainId',
  'tournamentId',
  'challengeId',
  'owner',
  'txHash',
  'depositAddress',
]);

/**
 * Operations whose credit each addressing style sets by its own documented rule: across two
 * dialects the credited amount, and a refusal of a repeated claim, are the dialects' difference,
 * not the target's fault (the replay funds the difference the target's way and says so).
 */
export const DIALECT_CREDITS: Readonly<Partial<Record<OperationName, string>>> = {
  'faucet.register':
    'a style B registration grants 10 USDC; style A and a deployment grant none (platform.md, DEPLOYED.md §3)',
  'faucet.claim':
    'a style B claim credits 2 USDC every 24 h; style A and a deployment credit 1 USDC once per agent (platform.md, DEPLOYED.md §3)',
};
/**
 * Other values two dialects document differently for one operation (the tables at the end of
 * DEPLOYED.md §5 and §7): across those dialects such a difference is documented (info), not a fault.
 * `expected`, `seen`: the recorded and the live value as the finding shows them.
 */
interface DialectDifference {
  /** The result's field path, or a pattern of paths (`levels[0].earnedMicro`). */
  readonly field: string | RegExp;
  /** `input`: the operation's input as the replay sent it (a rule about what was asked). */
  readonly applies: (expected: JsonValue, seen: JsonValue, input: unknown) => boolean;
  readonly source: string;
}

/** The deployed escrow's shortest description (DEPLOYED.md §4: `description ≥ 3 chars`, counted as JavaScript does). */
const DEPLOYED_DESCRIPTION_MIN_CHARS = 3;

function descriptionOf(input: unknown): string {
  const description = isObject(input) ? input['description'] : undefined;
  return typeof description === 'string' ? description : '';
}

export const DIALECT_DIFFERENCES: Readonly<Partial<Record<OperationName, readonly DialectDifference[]>>> = {
  'trading.order': [
    {
      field: 'status',
      applies: (expected, seen) => expected === 'filled' && seen === 'open',
      source:
        'a market order is `filled` in the documents; a deployment answers the position it opened, `status: "open"` (DEPLOYED.md §5)',
    },
  ],
  'trading.spot': [
    {
      field: 'status',
      applies: (expected, seen) => expected === 'filled' && seen === 'open',
      source:
        'a spot buy is `filled` in the documents; a deployment trades perpetuals only, so afp asks it a 1x long of the same notional, answered as the position it opened, `status: "open"` (DEPLOYED.md §5)',
    },
  ],
  'faucet.referrals': [
    {
      field: /^(referredCount|earnedMicro|levels(\[\d\]\.(referred|earnedMicro))?)$/,
      applies: () => true,
      source:
        "the documents keep one referral tree for every service and pay its referrers a share of each service's fees; a deployment's casino counts the casino registrations made with the code, level 1 only, and pays 10 / 5 / 2.5 % of each losing stake (DEPLOYED.md §2.9)",
    },
  ],
  'faucet.status': [
    {
      field: 'accepted',
      applies: (expected, seen) => typeof expected === 'string' && /^5\d\d /.test(expected) && seen === 'accepted',
      source:
        "a deployment's faucet has no status: afp reads it as the casino balance the faucet credits (DEPLOYED.md §3), which the recording's faucet fault window does not reach",
    },
  ],
  'wallet.swap-status': [
    {
      field: 'status',
      applies: (expected, seen) =>
        typeof expected === 'string' && typeof seen === 'string' && !/fail|refund|expire/.test(`${expected} ${seen}`),
      source:
        "a swap moves on as its deposit arrives and the aggregator it goes through proceeds, each target by its own (DEPLOYED.md §6: the swap's `check_status`); a state in progress is not the recording's to match",
    },
  ],
  'wallet.transactions': [
    {
      field: 'accepted',
      applies: (expected, seen) => expected === 'accepted' && typeof seen === 'string' && /^400 /.test(seen),
      source:
        'the documents read a transaction by hash on every chain (style B); a deployment has no such read, and its transactions list, which afp asks instead, need not serve that chain (DEPLOYED.md §6 names the list, not its chains)',
    },
  ],
  'trading.limit': [
    {
      field: 'status',
      applies: (expected, seen) => expected === 'open' && seen === 'pending',
      source:
        'a resting limit order is `open` in the documents; a deployment answers it `status: "pending"` (DEPLOYED.md §5)',
    },
    {
      field: 'accepted',
      applies: (expected, seen) =>
        expected === 'accepted' &&
        typeof seen === 'string' &&
        /^400 /.test(seen) &&
        /close it first|position/i.test(seen),
      source:
        "the documents net an order against the agent's position on the market; a deployment keeps one position per coin and refuses an order against it until it is closed (DEPLOYED.md §5: positions closed whole by id)",
    },
  ],
  'trading.cancel': [
    {
      field: 'accepted',
      applies: (expected, seen) =>
        expected === 'accepted' && typeof seen === 'string' && /^4\d\d /.test(seen) && /not_pending|filled/i.test(seen),
      source:
        'each dialect fills a resting limit order by its own rule (the documents at the instant the price crosses it; a deployment by its 30-second poll at its own price, DEPLOYED.md §5), so a cancel may find it filled on one and not the other',
    },
  ],
  'escrow.create': [
    {
      field: 'accepted',
      applies: (expected, seen, input) =>
        expected === 'accepted' &&
        typeof seen === 'string' &&
        seen.startsWith('400 ') &&
        /description/i.test(seen) &&
        descriptionOf(input).length < DEPLOYED_DESCRIPTION_MIN_CHARS,
      source:
        'the documents take any description, an empty one included; a deployment refuses one shorter than 3 characters (DEPLOYED.md §4: `description ≥ 3 chars`)',
    },
  ],
  'wallet.send': [
    {
      field: 'accepted',
      applies: (expected, seen, input) =>
        expected === 'accepted' &&
        typeof seen === 'string' &&
        seen.startsWith('501 ') &&
        isObject(input) &&
        input['chain'] === 'bitcoin',
      source: 'the documents send bitcoin; a deployment answers a bitcoin send 501 `not_implemented` (DEPLOYED.md §6)',
    },
  ],
  'domains.transfer': [
    {
      field: 'status',
      applies: (expected, seen) => expected === 'completed' && seen === 'transferred',
      source:
        'a gift is `completed` in the documents; the deployment answers `transferred` (DEPLOYED.md §7 names no status; as afp serve --dialect deployed answers it)',
    },
  ],
  'domains.lookup': [
    {
      field: 'accepted',
      applies: (expected, seen) => typeof expected === 'string' && expected.startsWith('404 ') && seen === 'accepted',
      source:
        "the documents answer the lookup of a name nobody holds 404; a deployment's public whois answers it `registered: false` (DEPLOYED.md §7)",
    },
  ],
};
const CREDIT_FIELD = 'creditedMicro';
/**
 * Fields a replay cannot reproduce, never compared: a position's prices are those of the instant the
 * replay reached (its own funding of an account may move a manual serve's clock), and its size the
 * notional at them. A swap quote's output is the market rate of the instant (the aggregator's prices).
 */
const INSTANT_FIELDS: Readonly<Partial<Record<OperationName, readonly string[]>>> = {
  'trading.positions': ['entryPrice', 'markPrice', 'liquidationPrice', 'sizeMicro'],
  'wallet.quote': ['toAmount'],
};
const DEPTH_MAX = 8;
const LIST_ELEMENTS_MAX = 1_000;

function refusalText(refusal: Refusal): string {
  return `${refusal.status} ${refusal.name}${refusal.message === '' ? '' : `: ${refusal.message.slice(0, 160)}`}`;
}

/**
 * Escrow states a dialect names otherwise, as afp's: the deployment's `funded` (and `completed`,
 * the counterparty's mark, still held) is afp's `locked`; its `refunded` is afp's `expired`, since
 * a deployed escrow is refunded only by its timeout (there is no refund call; DEPLOYED.md §4).
 */
export const ESCROW_STATES: Readonly<Partial<Record<DialectName, Readonly<Record<string, string>>>>> = {
  deployed: { funded: 'locked', completed: 'locked', refunded: 'expired' },
};
const STATE_SOURCE = 'DEPLOYED.md §4 (funded/completed/released/disputed/refunded; refunded only by the timeout)';

export interface CompareOptions {
  readonly bindings: Bindings;
  /** The dialect the recording's exchange spoke (its route's style) and the target's for the service. */
  readonly recordingDialect: DialectName;
  readonly liveDialect: DialectName;
  /** The operation's input as sent, for the rules about what was asked (DIALECT_DIFFERENCES). */
  readonly input?: unknown;
}

export function compareOutcomes<R>(
  op: OperationName,
  recorded: ReadOutcome<R>,
  live: ReadOutcome<R>,
  options: CompareOptions,
): ResultDifference[] {
  const across = options.recordingDialect !== options.liveDialect;
  const documented = across ? DIALECT_CREDITS[op] : undefined;
  const known = across ? (DIALECT_DIFFERENCES[op] ?? []) : [];
  const knownRule = (difference: ResultDifference): ResultDifference | null => {
    const rule = known.find(
      (item) =>
        (typeof item.field === 'string' ? item.field === difference.field : item.field.test(difference.field)) &&
        item.applies(difference.expected, difference.seen, options.input),
    );
    return rule === undefined ? null : { ...difference, documented: rule.source };
  };
  const withRule = (difference: ResultDifference): ResultDifference =>
    knownRule(difference) ?? (documented === undefined ? difference : { ...difference, documented });
  if (recorded.kind === 'unreadable' || live.kind === 'unreadable') return [];
  if (recorded.kind === 'refused' && live.kind === 'refused') return [];
  if (recorded.kind === 'ok' && live.kind === 'refused') {
    return [
      withRule({
        kind: 'rule',
        field: 'accepted',
        expected: 'accepted',
        seen: refusalText(live.refusal),
        note: 'refused where the recording was accepted',
      }),
    ];
  }
  if (recorded.kind === 'refused' && live.kind === 'ok') {
    return [
      withRule({
        kind: 'rule',
        field: 'accepted',
        expected: refusalText(recorded.refusal),
        seen: 'accepted',
        note: 'accepted where the recording was refused',
      }),
    ];
  }
  if (recorded.kind !== 'ok' || live.kind !== 'ok') return [];
  const differences: ResultDifference[] = [];
  const states = {
    recorded: ESCROW_STATES[options.recordingDialect] ?? {},
    live: ESCROW_STATES[options.liveDialect] ?? {},
  };
  compareValues(
    recorded.value,
    live.value,
    '',
    {
      bindings: options.bindings,
      skipped: new Set(documented === undefined ? [] : [CREDIT_FIELD]),
      skippedNames: new Set(INSTANT_FIELDS[op] ?? []),
      states,
      differences,
    },
    0,
  );
  return known.length === 0
    ? differences
    : differences.map((difference) =>
        difference.documented === undefined ? (knownRule(difference) ?? difference) : difference,
      );
}

interface Walk {
  readonly bindings: Bindings;
  readonly skipped: ReadonlySet<string>;
  /** Field names not compared wherever they appear (INSTANT_FIELDS). */
  readonly skippedNames: ReadonlySet<string>;
  readonly states: {
    readonly recorded: Readonly<Record<string, string>>;
    readonly live: Readonly<Record<string, string>>;
  };
  readonly differences: ResultDifference[];
}

/**
 * List elements paired for comparison: elements that carry an identifier field are paired through
 * the bindings (a live list may hold the same escrows in another order, or others besides);
 * an element whose id is not bound yet, or whose live partner is absent, is paired with nothing
 * (the length check says the lists differ). Other lists pair by position. Positions are the one
 * exception: netted one per market and listed by market on both sides (the dialects sort them), a
 * position never seen before (no answer showed its id) is paired with the one at the same place
 * whose id is unbound too, and the comparison binds them.
 */
function pairById(
  expected: readonly unknown[],
  seen: readonly unknown[],
  bindings: Bindings,
): Array<[unknown, unknown]> {
  const idOf = (item: unknown): { name: string; value: string } | null => {
    if (typeof item !== 'object' || item === null) return null;
    for (const name of IDENTIFIER_FIELDS) {
      const value = (item as Record<string, unknown>)[name];
      if (typeof value === 'string') return { name, value };
    }
    return null;
  };
  if (!expected.every((item) => idOf(item) !== null)) return expected.map((item, index) => [item, seen[index]]);
  const byId = new Map(seen.map((item) => [idOf(item)?.value, item] as const));
  return expected.map((item, index) => {
    const id = idOf(item) as { name: string; value: string };
    const bound = bindings.live(id.value);
    if (bound !== undefined || id.name !== 'positionId') return [item, byId.get(bound ?? '') ?? null];
    const there = idOf(seen[index]);
    return [
      item,
      there !== null && there.name === 'positionId' && bindings.recorded(there.value) === undefined
        ? seen[index]
        : null,
    ];
  });
}

function show(value: unknown): JsonValue {
  if (typeof value === 'bigint') return formatDecimal(value);
  return (value ?? null) as JsonValue;
}

function compareValues(expected: unknown, seen: unknown, path: string, walk: Walk, depth: number): void {
  if (expected === null || seen === null || expected === undefined || seen === undefined || depth > DEPTH_MAX) return;
  const name = path.slice(path.lastIndexOf('.') + 1).replace(/\[\d+\]$/, '');
  if (walk.skipped.has(path) || walk.skippedNames.has(name)) return;
  if (IDENTIFIER_FIELDS.has(name) && typeof expected === 'string' && typeof seen === 'string') {
    const bound = walk.bindings.bind(expected, seen);
    if (!bound.ok)
      walk.differences.push({ kind: 'rule', field: path, expected: bound.expected, seen, note: bound.conflict });
    return;
  }
  if (Array.isArray(expected) && Array.isArray(seen)) {
    if (expected.length !== seen.length)
      walk.differences.push({
        kind: 'rule',
        field: `${path}.length`,
        expected: expected.length,
        seen: seen.length,
        note: 'a list of another length',
      });
    const paired = pairById(expected.slice(0, LIST_ELEMENTS_MAX), seen, walk.bindings);
    paired.forEach(([item, other], index) => compareValues(item, other, `${path}[${index}]`, walk, depth + 1));
    return;
  }
  if (typeof expected === 'object' && typeof seen === 'object') {
    for (const [key, value] of Object.entries(expected as Record<string, unknown>)) {
      compareValues(
        value,
        (seen as Record<string, unknown>)[key],
        path === '' ? key : `${path}.${key}`,
        walk,
        depth + 1,
      );
    }
    return;
  }
  if (expected === seen) return;
  if (
    name === 'status' &&
    typeof expected === 'string' &&
    typeof seen === 'string' &&
    (walk.states.recorded[expected] ?? expected) === (walk.states.live[seen] ?? seen)
  ) {
    walk.differences.push({
      kind: 'rule',
      field: path,
      expected,
      seen,
      note: 'the same state by another name',
      documented: STATE_SOURCE,
    });
    return;
  }
  const money = typeof expected === 'bigint';
  walk.differences.push({
    kind: money ? 'money' : 'rule',
    field: path,
    expected: show(expected),
    seen: show(seen),
    note: money ? 'another amount' : 'another value',
  });
}
