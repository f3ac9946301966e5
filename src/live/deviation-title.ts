/**
 * A wire deviation (wire-reader.ts) said in words: a finding's title (deviation-findings.ts), and
 * why a call's 2xx could not be used (`unreadableWhy`, for live-session.ts: `registration failed:
 * unreadable (200): \`agent_id\` is missing`). Why a file of its own: both say it alike, and the
 * session cannot import the findings (they import its types). A field's name is the target's: cut
 * to FIELD_CHARS_MAX, as every text afp repeats from a target is bounded.
 */
import type { JsonValue } from '../core/errors.ts';
import type { OverLimit } from './read-answer.ts';
import type { Deviation, DeviationKind } from './wire-reader.ts';

const FIELD_CHARS_MAX = 120;
const TITLE_CHARS_MAX = 300;

const TITLES: Record<DeviationKind, (field: string, expected: JsonValue) => string> = {
  renamed: (field: string, expected: JsonValue) => `\`${field}\` is what the documents call \`${String(expected)}\``,
  fallback: (field: string, expected: JsonValue) =>
    `answered \`${field}\` (the documents' name) where the dialect has \`${String(expected)}\``,
  missing: (field: string) => `\`${field}\` is missing`,
  type: (field: string, expected: JsonValue) => `\`${field}\` is not ${String(expected)}`,
  unknown: (field: string) => `\`${field}\` is not in the documents`,
  'error-shape': (field: string, expected: JsonValue) =>
    `error body without \`${field}\` (expected ${String(expected)})`,
  'not-json': () => 'the answer is not JSON',
  'too-large': () => "the answer's body is larger than afp reads (--max-body-mb)",
  'too-deep': () => "the answer's JSON is nested deeper than afp reads",
  redirect: (_field: string, expected: JsonValue) => `answered a redirect afp does not follow (${String(expected)})`,
};

/** The deviation in words: its field cut to FIELD_CHARS_MAX characters, the whole to TITLE_CHARS_MAX. */
export function deviationTitle(kind: DeviationKind, field: string, expected: JsonValue): string {
  const shown = field.length > FIELD_CHARS_MAX ? `${field.slice(0, FIELD_CHARS_MAX)}…` : field;
  const title = TITLES[kind](shown, expected);
  return title.length > TITLE_CHARS_MAX ? `${title.slice(0, TITLE_CHARS_MAX)}…` : title;
}

/**
 * Why a 2xx could not be used, in words: the limit it was past (not read), else the first field the
 * operation needed that was missing or mistyped (the deviations raised as findings say them all).
 */
export function unreadableWhy(over: OverLimit | undefined, deviations: readonly Deviation[]): string | null {
  if (over !== undefined)
    return `${over.kind === 'too-large' ? 'its answer is over' : 'its JSON is nested deeper than'} ${over.limit}, afp's limit: not read`;
  const first = deviations.find((deviation) => deviation.required) ?? deviations[0];
  return first === undefined ? null : deviationTitle(first.kind, first.field, first.expected);
}
