/**
 * Reading a batch answer (`POST /bets/batch`): `results`, one element per bet sent, each a bet
 * answer or an error object, then a `summary` and `balance_after`. The documents flag each element
 * with `ok`; the deployment does not (DEPLOYED.md §2.6): an element is an error when it carries an
 * `error` and no `bet_id`. Either way a refused element is a Refusal with the target's own error
 * name, and an element that is neither is recorded on the reader, never counted as refused.
 */
import type { JsonValue } from '../../core/errors.ts';
import type { BatchSummary, LiveBet, Refusal } from '../operations.ts';
import { valueAt, type WireReader } from '../wire-reader.ts';
import { readBet } from './bet-answer.ts';

const MAX_ELEMENTS = 1_000;

function refusalOf(element: unknown, errorName: 'code' | 'error'): Refusal {
  const code = valueAt(element, 'code');
  const error = valueAt(element, 'error');
  const message = valueAt(element, 'message');
  const name =
    errorName === 'code' && typeof code === 'string'
      ? code
      : typeof error === 'string'
        ? error
        : typeof code === 'string'
          ? code
          : 'unnamed_error';
  return {
    status: 200,
    name,
    message: typeof message === 'string' ? message : typeof error === 'string' ? error : '',
    body: (element ?? null) as JsonValue,
  };
}

/**
 * The elements in order; null when `results` is absent. `isError` tells an error element by the
 * dialect's own flag (the documents' `ok: false`); without one, `error` without `bet_id` does.
 */
export function readBatchElements(
  reader: WireReader,
  errorName: 'code' | 'error',
  isError: (element: WireReader) => boolean,
  paidPlaces: number | null = null,
): Array<LiveBet | Refusal> | null {
  const results = reader.array('results');
  if (results === null) return null;
  return results.slice(0, MAX_ELEMENTS).map((element, index) => {
    const nested = reader.nested(element, `results[${index}]`);
    const errorLike = valueAt(element, 'error') !== undefined && valueAt(element, 'bet_id') === undefined;
    if (isError(nested) || errorLike) return refusalOf(element, errorName);
    return readBet(nested, paidPlaces) ?? refusalOf(element, errorName);
  });
}

export function readSummary(reader: WireReader): BatchSummary | null {
  if (reader.object('summary', { optional: true }) === null) return null;
  return {
    total: reader.number('summary.total', { optional: true }),
    won: reader.number('summary.won', { optional: true }),
    lost: reader.number('summary.lost', { optional: true }),
    errors: reader.number('summary.errors', { optional: true }),
    totalWageredMicro: reader.money('summary.total_wagered', { optional: true }),
    totalWonMicro: reader.money('summary.total_won', { optional: true }),
    netPnlMicro: reader.money('summary.net_pnl', { optional: true }),
  };
}
