// The error-shape deviation (src/live/dialects/dialect.ts readRefusal) names the field an error
// body actually lacks: on the deployment's `{ error, message }` shape a body with `error` but no
// `message` lacks `message` (not `error`), one without `error` lacks `error`, and an empty one both;
// the finding's title says so (src/live/deviation-findings.ts).
import { describe, expect, test } from 'vitest';
import { readRefusal } from '../../src/live/dialects/dialect.ts';
import { dialectByName } from '../../src/live/dialects/index.ts';
import { deviationFinding } from '../../src/live/deviation-findings.ts';
import { WireReader } from '../../src/live/wire-reader.ts';

function lacking(body: unknown): string[] {
  const reader = new WireReader(body);
  readRefusal(dialectByName('deployed'), 400, reader);
  return reader
    .deviations()
    .filter((deviation) => deviation.kind === 'error-shape' && !deviation.documented)
    .map((deviation) => deviation.field);
}

describe('error-shape names the missing field', () => {
  test("the deployment's shape: error without message lacks message; message without error lacks error; {} both", () => {
    expect(lacking({ error: 'minimum_bet' })).toEqual(['message']);
    expect(lacking({ message: 'Minimum bet is $0.01' })).toEqual(['error']);
    expect(lacking({})).toEqual(['error', 'message']);
    expect(lacking({ error: 'minimum_bet', message: 'Minimum bet is $0.01' })).toEqual([]);
  });

  test('the finding says which field the body lacks', () => {
    const reader = new WireReader({ error: 'minimum_bet' });
    readRefusal(dialectByName('deployed'), 400, reader);
    const deviation = reader.deviations().find((one) => one.kind === 'error-shape' && !one.documented);
    if (deviation === undefined) throw new Error('no error-shape deviation');
    const finding = deviationFinding(
      {
        op: 'casino.bet',
        endpoint: 'POST /api/v1/games/dice',
        status: 400,
        deviation,
        request: { method: 'POST', url: 'http://127.0.0.1:4300/api/v1/games/dice', auth: true },
      },
      () => 'curl -X POST http://127.0.0.1:4300/api/v1/games/dice',
    );
    expect(finding).toMatchObject({ id: 'shape:casino.bet:error-shape:message', severity: 'minor' });
    expect(finding.title).toBe(
      'casino.bet: error body without `message` (expected { "error": snake_case, "message": text })',
    );
  });
});
