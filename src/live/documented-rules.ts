/**
 * Documented rules: the values a live check expects where the documents and a target's dialect
 * may disagree, as data (one row per rule: the documents' value, and each dialect's own where it
 * documents another). A live check judges what it saw against its target's dialect:
 *   - the documents' value: pass;
 *   - the value the dialect documents instead: a finding (info, kind 'rule'), never a failure —
 *     the target answers as its own published rules say (STYLE rule 14);
 *   - anything else: a failure, with both expected values named.
 * Values are compared as text (`422 INSUFFICIENT_BALANCE`, `locked`), so a refusal's status and
 * name are one value. Also the rounding a dialect documents for the amounts it shows.
 * Non-goals: reading the wire (the dialects), the model's arithmetic (the checks).
 */
import type { Micro } from '../core/money.ts';
import type { FindingInput } from './finding.ts';
import type { Refusal } from './operations.ts';
import type { DialectName } from './target.ts';

export interface DocumentedRule {
  /** What the rule is about, for a person. */
  readonly title: string;
  readonly documents: string;
  /** Where a dialect documents another value (and where it says so). */
  readonly dialects: Partial<Readonly<Record<DialectName, { readonly value: string; readonly source: string }>>>;
}

export const DOCUMENTED_RULES = {
  'escrow.status.created': {
    title: 'the status of a new escrow',
    documents: 'locked',
    dialects: { deployed: { value: 'funded', source: 'DEPLOYED.md §4 (funded/completed/released/disputed/refunded)' } },
  },
  'escrow.status.released': { title: 'the status of a released escrow', documents: 'released', dialects: {} },
  'escrow.refusal.over-balance': {
    title: 'an escrow above the balance is refused',
    documents: '422 INSUFFICIENT_BALANCE',
    dialects: { deployed: { value: '402 insufficient_balance', source: 'DEPLOYED.md §4 (402 insufficient_balance)' } },
  },
  'escrow.refusal.released-again': {
    title: 'a second release of an escrow is refused',
    documents: '409 CONFLICT',
    dialects: { deployed: { value: '409 invalid_status', source: 'DEPLOYED.md §4 (wrong status 409 invalid_status)' } },
  },
  'casino.refusal.over-balance': {
    title: 'a bet above the balance is refused',
    documents: '422 INSUFFICIENT_BALANCE',
    dialects: {
      deployed: {
        value: '400 insufficient_balance',
        source: 'DEPLOYED.md §2.4 (balance < amount → 400 insufficient_balance)',
      },
    },
  },
  'trading.refusal.over-balance': {
    title: 'a trading position whose margin the balance cannot cover is refused',
    documents: '422 INSUFFICIENT_BALANCE',
    dialects: {
      deployed: {
        value: '400 insufficient_balance',
        source: 'DEPLOYED.md §1.2 (business errors 400), as afp serve --dialect deployed answers it',
      },
    },
  },
  'trading.refusal.too-large': {
    title: 'a position of 10,001 USDC at leverage 10 (margin 1,000.10) is refused',
    documents: '422 INSUFFICIENT_BALANCE',
    dialects: {
      deployed: { value: '400 position_too_large', source: 'DEPLOYED.md §5 (400 position_too_large over 10 000)' },
    },
  },
  'trading.fee.rate': {
    title: 'the fee of a market order, as a share of its size',
    documents: '0.2%',
    dialects: {
      deployed: { value: '0.035% + builder fee', source: 'DEPLOYED.md §5 (fee 0.035% + builder 0.02/0.01/0%)' },
    },
  },
  'trading.leverage.default': {
    title: 'the leverage of a perpetual order that names none',
    documents: '1',
    dialects: {
      deployed: {
        value: '5',
        source:
          'DEPLOYED.md §5 (leverage default 5); the documents name no default, afp reads 1 (docs/decisions/deployed-dialect.md)',
      },
    },
  },
  'trading.entry.price': {
    title: 'the entry of a market order against the price read at the same instant',
    documents: 'the taker quote',
    dialects: {
      deployed: { value: 'the price', source: 'DEPLOYED.md §5 (one `price` per market, `entry_price`; no bid or ask)' },
    },
  },
  'trading.limit.status': {
    title: 'the status of a limit order resting below (a long) or above (a short) the price',
    documents: 'open',
    dialects: { deployed: { value: 'pending', source: 'DEPLOYED.md §5 (POST /v1/trade/limit → 201 status pending)' } },
  },
  'trading.cancel.status': { title: 'the status of a cancelled limit order', documents: 'cancelled', dialects: {} },
  'domains.transfer.priced': {
    title: 'a transfer with a price (an offer the buyer accepts)',
    documents: 'accepted',
    dialects: {
      deployed: {
        value: 'no priced transfer',
        source: 'DEPLOYED.md §7 (transfer {to_agent_id, note?}: a gift, no sale)',
      },
    },
  },
  'casino.refusal.withdraw-over-balance': {
    title: 'a withdrawal above the balance is refused',
    documents: '422 INSUFFICIENT_BALANCE',
    dialects: {
      deployed: {
        value: '400 insufficient_balance',
        source: 'DEPLOYED.md §2.2, as afp serve --dialect deployed answers it',
      },
    },
  },
  'auth.refusal.unknown-key': {
    title: 'an unknown API key is refused',
    documents: '401 UNAUTHORIZED',
    dialects: { deployed: { value: '401 unauthorized', source: 'DEPLOYED.md §1.2 (401 unauthorized)' } },
  },
  'faucet.refusal.claimed-again': {
    title: 'a second faucet claim is refused',
    documents: '409 FAUCET_CLAIMED',
    dialects: { deployed: { value: '409 already_claimed', source: 'DEPLOYED.md §3 (409 already_claimed)' } },
  },
  'domains.refusal.taken': {
    title: 'registering a name already held is refused',
    documents: '409 CONFLICT',
    dialects: { deployed: { value: '400 domain_unavailable', source: 'DEPLOYED.md §7 (400 domain_unavailable)' } },
  },
  'domains.refusal.over-balance': {
    title: 'a domain registration above the balance is refused',
    documents: '422 INSUFFICIENT_BALANCE',
    dialects: { deployed: { value: '400 insufficient_balance', source: 'DEPLOYED.md §7 (400 insufficient_balance)' } },
  },
  'faucet.claim.amount': { title: 'a first faucet claim credits', documents: '1.00', dialects: {} },
  'casino.register.balance': {
    title: 'the balance of a newly registered agent',
    documents: '0.00',
    dialects: {
      deployed: { value: '1.00', source: 'DEPLOYED.md §2.2 (registration also posts a faucet claim for the agent)' },
    },
  },
  'wallet.create.status': {
    title: 'the status of a wallet creation',
    documents: '200',
    dialects: { deployed: { value: '201', source: 'DEPLOYED.md §6 (create → 201)' } },
  },
  'wallet.balance.chain-default': {
    title: 'a wallet balance read without chain',
    documents: 'refused 400',
    dialects: { deployed: { value: 'answered base', source: 'DEPLOYED.md §6 (chain default base)' } },
  },
  'wallet.swap.symbols': {
    title: 'a swap quote naming its tokens by symbol',
    documents: 'refused 400',
    dialects: { deployed: { value: 'answered', source: 'DEPLOYED.md §6 (symbols or addresses)' } },
  },
  'wallet.swap.window': {
    title: 'swap requests one address may send in a minute',
    documents: 'over 30',
    dialects: {
      deployed: { value: '30', source: 'DEPLOYED.md §6 (swap 30 per IP per 60 s; the documents 120 a minute)' },
    },
  },
  'wallet.style-a.served': {
    title: "the wallet's style A balance call (GET /api/v1/balance)",
    documents: 'served',
    dialects: { deployed: { value: 'not served', source: 'DEPLOYED.md §6 (style A/B calls not served)' } },
  },
  'wallet.style-b.served': {
    title: "the wallet's style B balance call (GET /wallet-api/balance)",
    documents: 'served',
    dialects: { deployed: { value: 'not served', source: 'DEPLOYED.md §6 (style A/B calls not served)' } },
  },
} as const satisfies Readonly<Record<string, DocumentedRule>>;

export type RuleName = keyof typeof DOCUMENTED_RULES;

/**
 * Why a dialect's faucet cannot be asked for a claim by a check (null: it can): the deployed one
 * allows one claim per IP address a day and answers the next with 429 ip_rate_limited before any
 * other check (DEPLOYED.md §3), which a session would wait out for the whole time budget.
 */
export const FAUCET_CLAIM_LIMIT: Readonly<Record<DialectName, string | null>> = {
  A: null,
  B: null,
  short: null,
  deployed:
    'the deployed faucet allows one claim per IP address a day and answers any other with 429 ip_rate_limited (DEPLOYED.md §3)',
};

/**
 * The display fields of a dialect's answers and the decimals they are rounded to: a display field
 * is only checked to agree with the exact value within half a unit of its last place (plus float
 * noise, core/live-amount.ts withinRounding), and a credited amount is never judged from one.
 * The deployment (DEPLOYED.md §2.2, §2.4, §2.6, §2.8) rounds a bet's `amount_won` and
 * `new_balance`, a batch's `balance_after` and `kelly_max_next_bet`, and the Kelly figures to 2 dp;
 * its balances (`balance_usd`) and credits are unrounded doubles. The documents' styles round nothing.
 */
export interface DisplayRounding {
  /** Decimals of the display fields; null: the dialect shows every amount exactly. */
  readonly places: number | null;
  /** Field names (as the dialect spells them, last path segment) that are display fields. */
  readonly fields: readonly string[];
}

const EXACT: DisplayRounding = { places: null, fields: [] };
export const DISPLAY_ROUNDING: Readonly<Record<DialectName, DisplayRounding>> = {
  A: EXACT,
  B: EXACT,
  short: EXACT,
  deployed: {
    places: 2,
    fields: [
      'amount_won',
      'new_balance',
      'balance_after',
      'kelly_max_next_bet',
      'max_bet',
      'suggested_bet',
      'max_bet_this_game',
    ],
  },
};

/** The decimals `field` is rounded to in `dialect`'s answers, or null when it is shown exactly. */
export function displayPlaces(dialect: DialectName, field: string): number | null {
  const rounding = DISPLAY_ROUNDING[dialect];
  return rounding.fields.includes(field.split('.').at(-1) ?? field) ? rounding.places : null;
}

/** Half a unit of the display fields' last place, in micro (a bet's amount_won and new_balance: 5 000 on the deployment). */
export const SHOWN_ROUNDING_MICRO: Readonly<Record<DialectName, Micro>> = {
  A: halfUnitMicro(DISPLAY_ROUNDING.A),
  B: halfUnitMicro(DISPLAY_ROUNDING.B),
  short: halfUnitMicro(DISPLAY_ROUNDING.short),
  deployed: halfUnitMicro(DISPLAY_ROUNDING.deployed),
};

function halfUnitMicro(rounding: DisplayRounding): Micro {
  return rounding.places === null || rounding.places >= 6 ? 0n : 5n * 10n ** BigInt(5 - rounding.places);
}

export type Judgement =
  | { readonly verdict: 'pass' }
  | { readonly verdict: 'documented'; readonly finding: FindingInput }
  | { readonly verdict: 'fail'; readonly detail: string };

/** How a refusal is compared with a rule: `<status> <the target's own error name>`. */
export function refusalText(refusal: Pick<Refusal, 'status' | 'name'>): string {
  return `${refusal.status} ${refusal.name}`;
}

/** Judges `seen` against rule `name` for a target speaking `dialect`; `endpoint` and `evidence` go into a finding. */
export function judge(
  name: RuleName,
  dialect: DialectName,
  seen: string,
  context: { readonly endpoint: string; readonly evidence: string; readonly reproduce?: string },
): Judgement {
  const rule: DocumentedRule = DOCUMENTED_RULES[name];
  if (seen === rule.documents) return { verdict: 'pass' };
  const own = rule.dialects[dialect];
  if (own !== undefined && seen === own.value) {
    return {
      verdict: 'documented',
      finding: {
        id: `rule:${name}:${dialect}`,
        severity: 'info',
        kind: 'rule',
        title: `${rule.title}: \`${seen}\` where the documents say \`${rule.documents}\` (${own.source})`,
        endpoint: context.endpoint,
        expected: rule.documents,
        seen,
        evidence: context.evidence,
        ...(context.reproduce === undefined ? {} : { reproduce: context.reproduce }),
      },
    };
  }
  const expected =
    own === undefined
      ? `'${rule.documents}'`
      : `'${rule.documents}' (documents) or '${own.value}' (dialect ${dialect})`;
  return { verdict: 'fail', detail: `${rule.title}: '${seen}', expected ${expected}` };
}
