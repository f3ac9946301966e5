/**
 * Documented rules: the values a live check expects where the documents and a target's dialect
 * may disagree, as data (one row per rule: the documents' value, and each dialect's own where it
 * documents another). A live check judges what it saw against its target's dialect:
 *   - the documents' value: pass;
 *   - the value the dialect documents instead: a finding (info, kind 'rule'), never a failure —
 *     the target answers as its own published rules say (STYLE rule 14);
 *   - anything else: judge() says 'fail', with both expected values named; the live commands report
 *     it as a minor rule finding (ruleFinding), never as a broken target: a value neither documents
 *     is a rule the target set for itself (a fee rate, a status's name, an error's code), and the
 *     money it moves is judged by what the target's own answers state.
 * Values are compared as text (`422 INSUFFICIENT_BALANCE`, `locked`), so a refusal's status and
 * name are one value. Also the rounding a dialect documents for the amounts it shows.
 * Non-goals: reading the wire (the dialects), the model's arithmetic (the checks).
 */
import type { Micro } from '../core/money.ts';
import type { FindingInput } from '../report/findings/finding.ts';
import type { Refusal } from './operations.ts';
import type { DialectName } from './target.ts';
import RULES from './documented-rules.json' with { type: 'json' };

export interface DocumentedRule {
  /** What the rule is about, for a person. */
  readonly title: string;
  /**
   * Rules naming the states of one record (an escrow's status, an order's): a value another rule of
   * the family documents is the record in the wrong state (a contradiction), not a name of the target's own.
   */
  readonly family?: string;
  readonly documents: string;
  /** Where a dialect documents another value (and where it says so). */
  readonly dialects: Partial<Readonly<Record<DialectName, { readonly value: string; readonly source: string }>>>;
}

/**
 * The rules' names, written out: the package's declarations must not name the JSON file's type
 * (TypeScript's declaration output drops the import's `with { type: 'json' }`, which a user's
 * NodeNext type check then refuses). KEYS_MATCH below holds them equal to the data file's keys.
 */
export type RuleName =
  | 'escrow.status.created'
  | 'escrow.status.released'
  | 'escrow.refusal.over-balance'
  | 'escrow.refusal.released-again'
  | 'casino.refusal.over-balance'
  | 'trading.refusal.over-balance'
  | 'trading.refusal.too-large'
  | 'trading.fee.rate'
  | 'trading.leverage.default'
  | 'trading.entry.price'
  | 'trading.limit.status'
  | 'trading.cancel.status'
  | 'domains.transfer.priced'
  | 'casino.refusal.withdraw-over-balance'
  | 'auth.refusal.unknown-key'
  | 'faucet.refusal.claimed-again'
  | 'domains.refusal.taken'
  | 'domains.refusal.over-balance'
  | 'faucet.claim.amount'
  | 'casino.register.balance'
  | 'wallet.create.status'
  | 'wallet.balance.chain-default'
  | 'wallet.swap.symbols'
  | 'wallet.swap.window'
  | 'wallet.style-a.served'
  | 'wallet.style-b.served';

/** Compiles only while RuleName and the data file's keys are the same set. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const KEYS_MATCH: Same<RuleName, keyof typeof RULES> = true;
void KEYS_MATCH;

/** The rows, one per rule, in a data file (src/live/documented-rules.json): they are data, not code. */
export const DOCUMENTED_RULES: Readonly<Record<RuleName, DocumentedRule>> = RULES;

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
  | {
      readonly verdict: 'fail';
      readonly detail: string;
      readonly expected: string;
      /** `seen` is what another rule of the same family documents: the record is in another state. */
      readonly contradicts: boolean;
    };

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
  const contradicts =
    rule.family !== undefined &&
    Object.values(DOCUMENTED_RULES).some(
      (other) =>
        other !== rule &&
        other.family === rule.family &&
        (other.documents === seen || Object.values(other.dialects).some((own) => own?.value === seen)),
    );
  return { verdict: 'fail', detail: `${rule.title}: '${seen}', expected ${expected}`, expected, contradicts };
}

/**
 * A judgement as the finding a live command raises: none for the documents' value, info for the
 * value the dialect documents, minor (kind `rule`, id `rule:<name>`) for any other.
 */
export function ruleFinding(
  name: RuleName,
  dialect: DialectName,
  seen: string,
  context: { readonly endpoint: string; readonly evidence: string; readonly reproduce?: string },
): FindingInput | null {
  return findingOf(judge(name, dialect, seen, context), name, seen, context);
}

/** The finding of a judgement (ruleFinding); a contradiction is the caller's to judge (judge's `contradicts`). */
export function findingOf(
  verdict: Judgement,
  name: RuleName,
  seen: string,
  context: { readonly endpoint: string; readonly evidence: string; readonly reproduce?: string },
): FindingInput | null {
  if (verdict.verdict === 'pass') return null;
  if (verdict.verdict === 'documented') return verdict.finding;
  return {
    id: `rule:${name}`,
    severity: 'minor',
    kind: 'rule',
    title: `${verdict.detail}: a rule of the target's own`,
    endpoint: context.endpoint,
    expected: verdict.expected,
    seen,
    evidence: context.evidence,
    ...(context.reproduce === undefined ? {} : { reproduce: context.reproduce }),
  };
}
