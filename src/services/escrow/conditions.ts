/**
 * Release conditions of an escrow: a free-form JSON object that the platform stores and shows
 * but never interprets (the spec gives no semantics). It is bounded in keys, depth, nodes and
 * string length, must hold only JSON values (in-process callers can pass any JS object), and is
 * deep-copied so that a caller mutating its object later cannot change stored state.
 */
import { fail, succeed, type JsonObject, type JsonValue, type Outcome } from '../../core/errors.ts';
import { ESCROW_LIMITS } from './escrow-record.ts';

interface Budget {
  nodes: number;
}

type Copied = { readonly value: JsonValue } | { readonly problem: string };

export function checkConditions(value: unknown): Outcome<JsonObject> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('BAD_REQUEST', 'conditions must be a JSON object');
  if (Object.keys(value).length > ESCROW_LIMITS.conditionsKeysMax) {
    return fail('BAD_REQUEST', `conditions has more than ${ESCROW_LIMITS.conditionsKeysMax} keys`);
  }
  const copied = copyJson(value, 1, { nodes: 0 });
  if ('problem' in copied) return fail('BAD_REQUEST', `conditions ${copied.problem}`);
  return succeed(copied.value as JsonObject);
}

/** A deep copy of `value` as JSON, or the reason it is not acceptable. */
function copyJson(value: unknown, depth: number, budget: Budget): Copied {
  budget.nodes++;
  if (budget.nodes > ESCROW_LIMITS.conditionsNodesMax)
    return { problem: `has more than ${ESCROW_LIMITS.conditionsNodesMax} values` };
  if (value === null || typeof value === 'boolean') return { value };
  if (typeof value === 'number') return Number.isFinite(value) ? { value } : { problem: 'holds a non-finite number' };
  if (typeof value === 'string') {
    if (value.length <= ESCROW_LIMITS.conditionsStringLengthMax) return { value };
    return { problem: `holds a string longer than ${ESCROW_LIMITS.conditionsStringLengthMax} characters` };
  }
  if (typeof value !== 'object') return { problem: 'holds a value that is not JSON' };
  if (depth > ESCROW_LIMITS.conditionsDepthMax)
    return { problem: `is nested deeper than ${ESCROW_LIMITS.conditionsDepthMax} levels` };
  if (Array.isArray(value)) {
    const items: JsonValue[] = [];
    for (const item of value as unknown[]) {
      const copied = copyJson(item, depth + 1, budget);
      if ('problem' in copied) return copied;
      items.push(copied.value);
    }
    return { value: items };
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return { problem: 'holds a value that is not JSON' };
  const result: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    const copied = copyJson(item, depth + 1, budget);
    if ('problem' in copied) return copied;
    // defineProperty, not assignment: a `__proto__` key from JSON.parse stays a plain key.
    Object.defineProperty(result, key, { value: copied.value, enumerable: true, writable: true, configurable: true });
  }
  return { value: result };
}
