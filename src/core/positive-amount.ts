/**
 * positiveAmount: a parsed request amount (money.ts parseNumber/parseDecimal) as micro-USDC or a
 * 400 BAD_REQUEST Failure naming the field. One place for the wording, so that the route layer's
 * field readers (http/validate.ts) and the domain's own (services/casino/kelly/kelly-fields.ts,
 * which may not import http) answer a bad amount alike.
 */
import { fail, type Failure } from './errors.ts';
import type { Micro, ParseFailure } from './money.ts';

export function positiveAmount(parsed: Micro | ParseFailure, name: string): Micro | Failure {
  switch (parsed) {
    case 'not-a-number':
      return fail('BAD_REQUEST', `${name} must be a finite decimal number`);
    case 'too-many-decimals':
      return fail('BAD_REQUEST', `${name} has more than 6 decimals`);
    case 'too-large':
      return fail('BAD_REQUEST', `${name} is too large`);
    default:
      return parsed > 0n ? parsed : fail('BAD_REQUEST', `${name} must be positive`);
  }
}
