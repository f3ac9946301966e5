/**
 * listCall: platform.md Limits rule 7, "list calls accept limit up to 100", for the GET rows whose
 * answer is a list of items and that had no `limit` of their own (docs/decisions/platform.md). It
 * wraps a row: `?limit=` is read with validate.ts `queryLimit` (a whole number 1..100, else 400
 * naming limit) after the row's own parse has seen the rest of the query, so an unknown parameter
 * is still named first; the row then runs as before, and its rendered list fields are cut to
 * `limit` items each.
 * Invariants: without `limit` the row's answer is exactly what it was (its own default stays);
 * `limit` only removes items, never state; the `count` field, where the row names one, is the
 * number of items the answer carries (as on the lists that took a limit already: escrows,
 * orders, tournaments), while totals of other names (referred_count, total_agents, equity) stay
 * whole. Each named list is cut on its own (incoming and outgoing, overall and biggest wins).
 * Non-goals: paging; the rows that took a limit before keep their own (service-side) handling.
 */
import { isFailure, succeed, type JsonObject } from '../core/errors.ts';
import type { Route, RouteInput } from './route.ts';
import { queryLimit } from './validate.ts';

/** platform.md Limits rule 7. */
export const LIST_LIMIT_MAX = 100;

export interface ListShape {
  /** The body's fields that hold the list's items (arrays), each cut to `limit`. */
  readonly items: readonly string[];
  /** The body's field counting the items of `items`, set to the number kept; absent: none. */
  readonly count?: string;
  /** Which end a cut keeps: `first` (newest-first lists, catalogues) or `last` (an oldest-first curve). */
  readonly keep?: 'first' | 'last';
}

/**
 * A command, then a success value, of a request that sent `limit`. Without `limit` the row's own
 * command and value pass through as they are: the deployed rows built on a documents row
 * (routes/deployed/deployed-row.ts) run and render those, and never send `limit` to it.
 */
class Limited {
  readonly inner: unknown;
  readonly limit: number;
  constructor(inner: unknown, limit: number) {
    this.inner = inner;
    this.limit = limit;
  }
}

/** `row`, taking `?limit=` (1..100) and cutting the lists `shape` names to it. */
export function listCall(shape: ListShape, row: Route): Route {
  return {
    ...row,
    parse: (input, context) => {
      if (input.query['limit'] === undefined) return row.parse(input, context);
      const command = row.parse(withoutLimit(input), context);
      if (isFailure(command)) return command;
      const limit = queryLimit(input.query, LIST_LIMIT_MAX, LIST_LIMIT_MAX);
      return isFailure(limit) ? limit : new Limited(command, limit);
    },
    run: (context, command) => {
      if (!(command instanceof Limited)) return row.run(context, command);
      const outcome = row.run(context, command.inner);
      return isFailure(outcome) ? outcome : succeed(new Limited(outcome.value, command.limit));
    },
    render: (value, context) =>
      value instanceof Limited ? cut(row.render(value.inner, context), shape, value.limit) : row.render(value, context),
  };
}

function withoutLimit(input: RouteInput): RouteInput {
  const { limit: _limit, ...query } = input.query;
  return { ...input, query };
}

function cut(body: JsonObject, shape: ListShape, limit: number): JsonObject {
  let kept = 0;
  for (const field of shape.items) {
    const items = body[field];
    if (!Array.isArray(items)) continue;
    const trimmed = shape.keep === 'last' ? items.slice(Math.max(0, items.length - limit)) : items.slice(0, limit);
    body[field] = trimmed;
    kept += trimmed.length;
  }
  if (shape.count !== undefined && typeof body[shape.count] === 'number') body[shape.count] = kept;
  return body;
}
