/**
 * Invariant `error-shape`: every answer with status >= 400 is a JSON object carrying a non-empty
 * string `error` and a non-empty string `code` (platform.md "Errors"), whatever caused it: bad
 * input, a missing key, a rate limit or a fault window.
 */
import type { InvariantDefinition } from './checker.ts';
import { exchangeText } from './exchange-text.ts';

function nonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

export const errorShape: InvariantDefinition = {
  name: 'error-shape',
  description: 'every status >= 400 has a string error and a string code',
  create() {
    return {
      onExchange(exchange) {
        const { status, body } = exchange.response;
        if (status < 400) return null;
        const fields = body as { error?: unknown; code?: unknown };
        if (nonEmptyString(fields.error) && nonEmptyString(fields.code)) return null;
        return {
          atMs: exchange.atMs,
          event: exchangeText(exchange),
          message: `status ${status} answered without a string error and code`,
        };
      },
    };
  },
};
