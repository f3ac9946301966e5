/**
 * The reader of the prose a target publishes about its games (DEPLOYED.md §2.1: each `GET /games`
 * entry's `house_edge` and `payout`): "0.5%", "~4%", "~1.5% (with optimal strategy)",
 * "Player 1.24% | Banker 1.06% | Tie 14.4%", "1.96x", "Variable (e.g. over 50 = 1.96x, over 90 = 9.8x)".
 * Why: the target's own word is what a measured edge is held against; a figure it publishes once per
 * game is as much its word as `house_edge_pct` in an answer.
 *
 * Forms read (anything else is `unread`, quoted, never guessed):
 *   - house edge: one percentage, a number (2.7, read as percent like stated-percent.ts) or a string
 *     with an optional label ("House edge: 2.7%"), an approximate mark (`~`, `≈`, "about"), a range
 *     ("1-3%") and one trailing parenthesised note; or `Key N% | Key N%` (a figure per side, `|`, `,`
 *     or `;` between them);
 *   - payout: one multiplier ("1.96x", "5.5x", a number), or examples after "e.g." ("over 50 = 1.96x"),
 *     each keyed by the words and numbers that name its variant. Ranges ("1x (cherry) to 250x"),
 *     odds ("Player 1:1") and formulas are descriptions, not one figure a bet is held against: unread.
 * A key names a variant when each of its words or numbers equals one of the variant's parameter
 * values (`Player` ↔ `bet_on: player`, `over 50` ↔ `direction: over, threshold: 50`).
 * Limits: prose over PROSE_CHARS_MAX characters and more than STATEMENTS_MAX figures are unread.
 */
import type { JsonObject, JsonValue } from '../../core/errors.ts';

export const PROSE_CHARS_MAX = 400;
const STATEMENTS_MAX = 16;

export interface EdgeStatement {
  /** The words naming the variants it speaks for (lower case); empty: every variant of the game. */
  readonly key: readonly string[];
  /** The edge as a fraction (0.0124 for "1.24%"); a range's middle. */
  readonly edge: number;
  /** The tolerance the prose itself implies, as a fraction (see edgeTolerance). */
  readonly tolerance: number;
  /** The statement as written ("Player 1.24%"). */
  readonly text: string;
}

export interface PayoutStatement {
  readonly key: readonly string[];
  /** Total return per unit staked. */
  readonly multiplier: number;
  /** Given as an example of one variant ("e.g. over 50 = 1.96x"), not for the whole game. */
  readonly example: boolean;
  readonly text: string;
}

export type ProseReading<S> =
  | { readonly kind: 'read'; readonly statements: readonly S[] }
  /** Nothing said: the field is absent, null or empty. */
  | { readonly kind: 'silent' }
  | { readonly kind: 'unread'; readonly text: string };

/** "about"/"~"/"≈" before a figure: read as afp reads the documents' "about" (docs/decisions/live-and-audit.md). */
export const APPROXIMATE_TOLERANCE = 0.01;

const APPROXIMATE = /^(?:~|≈|about\s+|approx(?:imately|\.)?\s+|around\s+)\s*/i;
const LABEL = /^(?:house\s+edge|edge)\s*[:=]?\s*/i;
const NOTE = /\s*\([^()]*\)\s*$/;
const FIGURE = /^(-?\d+(?:\.\d+)?)\s*(?:(?:-|–|to)\s*(-?\d+(?:\.\d+)?)\s*)?%$/;
const KEYED =
  /^(.*?[a-z].*?)\s*[:=]?\s*((?:~|≈|about\s+)?-?\d+(?:\.\d+)?(?:\s*(?:-|–|to)\s*-?\d+(?:\.\d+)?)?\s*%(?:\s*\([^()]*\))?)$/i;

const decimals = (figure: string): number => figure.split('.')[1]?.length ?? 0;

/** Half a unit of the last written digit ("0.5%" ± 0.05 points), or the approximate mark's, or a range's half-width. */
function edgeTolerance(figure: string, approximate: boolean, halfRange: number): number {
  const own = (0.5 * 10 ** -decimals(figure)) / 100;
  return Math.max(own, approximate ? APPROXIMATE_TOLERANCE : 0, halfRange);
}

/** One figure with its mark, label and note stripped ("~1.5% (with optimal strategy)"); null if not one. */
function oneEdge(raw: string, key: readonly string[], text: string): EdgeStatement | null {
  let rest = raw.trim().replace(LABEL, '');
  const approximate = APPROXIMATE.test(rest);
  rest = rest.replace(APPROXIMATE, '').replace(NOTE, '').trim();
  const match = FIGURE.exec(rest);
  if (match === null) return null;
  const low = Number(match[1]);
  const high = match[2] === undefined ? low : Number(match[2]);
  if (!Number.isFinite(low) || !Number.isFinite(high) || high < low) return null;
  const figure = match[2] ?? (match[1] as string);
  return {
    key,
    edge: (low + high) / 200,
    tolerance: edgeTolerance(figure, approximate, (high - low) / 200),
    text,
  };
}

const keyWords = (key: string): string[] =>
  key
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter((word) => word !== '');

function tooLong(value: string): ProseReading<never> | null {
  return value.length > PROSE_CHARS_MAX ? { kind: 'unread', text: `${value.slice(0, PROSE_CHARS_MAX)}…` } : null;
}

/** A `house_edge` value as statements: one for the game, or one per keyed side. */
export function readEdgeProse(value: JsonValue | undefined): ProseReading<EdgeStatement> {
  if (value === undefined || value === null) return { kind: 'silent' };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { kind: 'unread', text: String(value) };
    const statement = oneEdge(`${value}%`, [], String(value));
    return statement === null ? { kind: 'unread', text: String(value) } : { kind: 'read', statements: [statement] };
  }
  if (typeof value !== 'string') return { kind: 'unread', text: JSON.stringify(value).slice(0, PROSE_CHARS_MAX) };
  const long = tooLong(value);
  if (long !== null) return long;
  if (value.trim() === '') return { kind: 'silent' };
  const whole = oneEdge(value, [], value.trim());
  if (whole !== null) return { kind: 'read', statements: [whole] };
  const parts = value
    .split(/\s*[|;,]\s*/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length < 2 || parts.length > STATEMENTS_MAX) return { kind: 'unread', text: value };
  const statements: EdgeStatement[] = [];
  for (const part of parts) {
    const keyed = KEYED.exec(part);
    const statement = keyed === null ? null : oneEdge(keyed[2] as string, keyWords(keyed[1] as string), part);
    if (statement === null) return { kind: 'unread', text: value };
    statements.push(statement);
  }
  return { kind: 'read', statements };
}

const MULTIPLIER = /^(\d+(?:\.\d+)?)\s*[x×]$/i;
const EXAMPLES = /^[^(]*\(\s*e\.?\s*g\.?,?\s*(.+)\)\s*$/i;
const EXAMPLE = /^(.+?)\s*(?:=|:|→|->|pays)\s*(\d+(?:\.\d+)?)\s*[x×]$/i;

/** A `payout` value as statements: one multiplier for the game, or examples each keyed by its variant. */
export function readPayoutProse(value: JsonValue | undefined): ProseReading<PayoutStatement> {
  if (value === undefined || value === null) return { kind: 'silent' };
  if (typeof value === 'number')
    return Number.isFinite(value) && value >= 0
      ? { kind: 'read', statements: [{ key: [], multiplier: value, example: false, text: String(value) }] }
      : { kind: 'unread', text: String(value) };
  if (typeof value !== 'string') return { kind: 'unread', text: JSON.stringify(value).slice(0, PROSE_CHARS_MAX) };
  const long = tooLong(value);
  if (long !== null) return long;
  const text = value.trim();
  if (text === '') return { kind: 'silent' };
  const single = MULTIPLIER.exec(text);
  if (single !== null)
    return { kind: 'read', statements: [{ key: [], multiplier: Number(single[1]), example: false, text }] };
  const examples = EXAMPLES.exec(text);
  if (examples === null) return { kind: 'unread', text };
  const parts = (examples[1] as string).split(/\s*[,;]\s*/).filter((part) => part !== '');
  if (parts.length === 0 || parts.length > STATEMENTS_MAX) return { kind: 'unread', text };
  const statements: PayoutStatement[] = [];
  for (const part of parts) {
    const match = EXAMPLE.exec(part);
    if (match === null) return { kind: 'unread', text };
    statements.push({ key: keyWords(match[1] as string), multiplier: Number(match[2]), example: true, text: part });
  }
  return { kind: 'read', statements };
}

/**
 * Whether each word of `key` names the variant: one of its parameter values (a string, case aside,
 * or a number), the length of a list parameter ("3 picks" ↔ `picks: [4, 9, 17]`), or a parameter's
 * own name, singular or plural, which labels the number written before it ("3 mines 5 reveals" ↔
 * `mines: 3, reveals: 5`; a number after a name where none comes before: "mines 3"). At least one
 * word must be a value or a length: a key of names alone names no variant.
 */
export function keyNames(key: readonly string[], params: JsonObject): boolean {
  const entries = Object.entries(params);
  const values = entries.flatMap(([, value]) =>
    typeof value === 'string' ? keyWords(value) : typeof value === 'number' ? [String(value)] : [],
  );
  const lengths = entries.flatMap(([, value]) => (Array.isArray(value) ? [String(value.length)] : []));
  let named = false;
  for (const [index, word] of key.entries()) {
    if (paramsOfName(word, params).length > 0) continue;
    const number = Number.isFinite(Number(word)) ? String(Number(word)) : null;
    const after = paramsOfName(key[index + 1], params);
    const labels = number === null ? [] : after.length > 0 ? after : paramsOfName(key[index - 1], params);
    if (labels.length > 0 && number !== null) {
      if (!labels.some((label) => numberIs(params[label], number))) return false;
    } else if (!values.includes(word) && (number === null || !(values.includes(number) || lengths.includes(number))))
      return false;
    named = true;
  }
  return named;
}

/** The parameters a word names (a word of their own name, singular or plural: `mine` ↔ `mines`, `bet` ↔ `bet_value`); none if it names none. */
function paramsOfName(word: string | undefined, params: JsonObject): string[] {
  if (word === undefined) return [];
  return Object.keys(params).filter((name) =>
    keyWords(name).some((part) => part === word || `${part}s` === word || part === `${word}s`),
  );
}

/** A parameter value equal to the number, or a list of that length. */
function numberIs(value: JsonObject[string] | undefined, number: string): boolean {
  if (Array.isArray(value)) return String(value.length) === number;
  return typeof value === 'number' && String(value) === number;
}

/**
 * The statement that speaks for a variant: a keyed one naming it (the first), else the game's
 * unkeyed one; null where the statements name other variants only.
 */
export function statementFor<S extends { readonly key: readonly string[] }>(
  statements: readonly S[],
  params: JsonObject,
): S | null {
  const keyed = statements.find((statement) => statement.key.length > 0 && keyNames(statement.key, params));
  return keyed ?? statements.find((statement) => statement.key.length === 0) ?? null;
}
