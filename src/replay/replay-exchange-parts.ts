/**
 * The small readings a replay through a dialect makes of a recorded exchange and of a live call:
 * the dialect its answer is read in, its bearer key, its body clipped for evidence, the live
 * outcome as the diff reads it, a curl line without secrets, and a finding's id suffix and title
 * clause for a documented or consequent difference. Pure; operation-replay.ts composes them.
 */
import { formatDecimal } from '../core/money.ts';
import type { Style } from '../http/route.ts';
import { redactSecretsDeep } from '../http/routes/wallet/wallet-parse.ts';
import {
  dialectByName,
  type Dialect,
  type CallOutcome,
  type SentRequest,
  type OperationName,
  readAnswer,
  type ReadOutcome,
  type OperationInput,
  type OperationResult,
} from '../live.ts';
import type { RouteOperation } from './route-operations-types.ts';
import type { ResultDifference } from './operation-diff.ts';
import type { RecordedExchange } from './record-format.ts';

const BEARER = 'Bearer ';
const EVIDENCE_CHARS_MAX = 300;

/** The dialect a recorded answer is read in: its route's style (the wallet's primary interface is in every documents style, read as A's). */
export function recordingDialect(style: Style, service: string): Dialect | null {
  if (style === 'primary' && service === 'wallet') return dialectByName('A');
  return style === 'A' || style === 'B' || style === 'short' ? dialectByName(style) : null;
}

export function bearerOf(exchange: RecordedExchange): string | null {
  const authorization = exchange.request.headers['authorization'];
  return authorization?.startsWith(BEARER) === true ? authorization.slice(BEARER.length) : null;
}

export function clip(value: unknown): string {
  const text =
    JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? formatDecimal(item) : item)) ??
    'undefined';
  return text.length > EVIDENCE_CHARS_MAX ? `${text.slice(0, EVIDENCE_CHARS_MAX)}…` : text;
}

/** A live call's outcome as the diff reads it; null when the call produced no answer to compare. */
export function liveOutcomeOf<R>(outcome: CallOutcome<R>): ReadOutcome<R> | null {
  switch (outcome.kind) {
    case 'ok':
      return { kind: 'ok', value: outcome.value };
    case 'refused':
      return { kind: 'refused', refusal: outcome.refusal };
    case 'unreadable':
      return { kind: 'unreadable' };
    case 'unsupported':
    case 'unreachable':
    case 'deadline':
      return null;
  }
}

export function secretFreeCurl(curl: (request: SentRequest) => string): (request: SentRequest) => string {
  return (request) =>
    curl({
      ...request,
      ...(request.body === undefined ? {} : { body: redactSecretsDeep(request.body) as typeof request.body }),
    });
}

/** Keeps a documented or consequent difference apart from an unexplained one of the same field. */
export function findingSuffix(difference: ResultDifference): string {
  if (difference.consequence === true) return ':consequence';
  if (difference.documented !== undefined && difference.field !== 'accepted') return `:${String(difference.seen)}`;
  return '';
}

export function explanation(difference: ResultDifference): string {
  if (difference.documented === undefined) return '';
  return difference.consequence === true
    ? `, a consequence: ${difference.documented}`
    : `, as the dialects document: ${difference.documented}`;
}

export function isRegistration(op: OperationName): boolean {
  return op === 'faucet.register' || op === 'casino.register';
}

/** The recorded answer read as the operation's result, through the recording's dialect (in the operation's shape: `recordedAs`). */
export function recordedOutcome(
  exchange: RecordedExchange,
  row: RouteOperation<OperationName>,
  dialect: Dialect,
  input: OperationInput<OperationName>,
): ReadOutcome<OperationResult<OperationName>> {
  const { response } = exchange;
  const body = row.recordedAs?.(response.body) ?? response.body;
  return readAnswer(dialect, row.op, { status: response.status, body, json: response.body_dropped !== true }, input)
    .outcome;
}
