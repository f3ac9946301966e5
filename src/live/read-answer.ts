/**
 * Reading one answer of an operation through a dialect, with no network: a 2xx by the dialect's
 * row, anything else as a Refusal with the answer's own error name (dialect.ts `readRefusal`), a
 * non-JSON answer as a `not-json` deviation. The LiveSession reads what a target answered with it,
 * and replay reads what a recording answered with it (the recording's dialect), so a live answer
 * and a recorded one are compared as operation results, never as wire shapes.
 * Never throws on any body; the deviations say what did not fit.
 */
import type { JsonValue } from '../core/errors.ts';
import { readRefusal, rowOf, type Dialect } from './dialects/dialect.ts';
import type { OperationInput, OperationName, OperationResult, Refusal } from './operations.ts';
import { WireReader, type Deviation } from './wire-reader.ts';

export type ReadOutcome<R> =
  | { readonly kind: 'ok'; readonly value: R }
  | { readonly kind: 'refused'; readonly refusal: Refusal }
  /** A 2xx whose essential fields could not be read, or that the dialect has no row for. */
  | { readonly kind: 'unreadable' };

export interface AnswerToRead {
  readonly status: number;
  readonly body: unknown;
  /** False when the body was not JSON (it is then the text, cut short). */
  readonly json: boolean;
  /** The answer was past afp's limits and not read (body undefined). */
  readonly overLimit?: OverLimit;
}

/** An answer afp did not read: its body was larger, or its JSON deeper, than afp reads. */
export interface OverLimit {
  readonly kind: 'too-large' | 'too-deep';
  /** The limit, as the user sets it (`16 MiB`, `256 levels`). */
  readonly limit: string;
}

export interface ReadAnswer<R> {
  readonly outcome: ReadOutcome<R>;
  readonly deviations: Deviation[];
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}

export function readAnswer<O extends OperationName>(
  dialect: Dialect,
  op: O,
  answer: AnswerToRead,
  input: OperationInput<O>,
): ReadAnswer<OperationResult<O>> {
  const reader = new WireReader(answer.body);
  if (answer.overLimit !== undefined)
    reader.record({
      kind: answer.overLimit.kind,
      field: '(body)',
      expected: `an answer within afp's limit (${answer.overLimit.limit})`,
      seen: `${answer.overLimit.kind === 'too-large' ? 'a body over' : 'JSON nested deeper than'} ${answer.overLimit.limit}`,
      documented: false,
      required: true,
    });
  else if (!answer.json)
    reader.record({
      kind: 'not-json',
      field: '(body)',
      expected: 'a JSON answer',
      seen: answer.body as JsonValue,
      documented: false,
      required: true,
    });
  if (!isSuccessStatus(answer.status)) {
    const refusal = readRefusal(dialect, answer.status, reader, rowOf(dialect, op)?.bareErrors);
    return { outcome: { kind: 'refused', refusal }, deviations: reader.deviations() };
  }
  const value =
    answer.json && answer.overLimit === undefined ? (rowOf(dialect, op)?.read(reader, input) ?? null) : null;
  return { outcome: value === null ? { kind: 'unreadable' } : { kind: 'ok', value }, deviations: reader.deviations() };
}
