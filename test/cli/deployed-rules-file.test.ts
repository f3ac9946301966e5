// `afp serve --dialect deployed --rules FILE`: the file is read strictly (every error with its path
// and line, at once), overrides only what it names, and its JSON Schema is the committed one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../src/cli/deployed-rules-file.ts';
import { parseServeArgs } from '../../src/cli/serve-flags.ts';
import { renderDeployedRulesJsonSchema } from '../../src/cli/deployed-rules-schema.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../src/services/casino/deployed/deployed-casino-rules.ts';

const root = join(import.meta.dirname, '..', '..');
const BRIEF = 'casino:\n  coin_flip: { payout: 1.97 }\n  wheel: { compare: fraction }\nmoney: { float_noise: true }\n';

describe('deployed rules files', () => {
  test("the brief's file overrides coin_flip.payout, wheel.compare and money.floatNoise, nothing else", () => {
    const parsed = parseDeployedRulesFile(BRIEF, 'rules.yaml');
    if (!parsed.ok) throw new Error(parsed.message);
    const rules = parsed.value;
    expect(rules.casino.coin_flip).toEqual({ payout: 1.97, headsBelow: 50 });
    expect(rules.casino.wheel).toEqual({ ...PUBLISHED_DEPLOYED_RULES.casino.wheel, compare: 'fraction' });
    expect(rules.money).toEqual({ floatNoise: true });
    expect({ ...rules.casino, coin_flip: null, wheel: null }).toEqual({
      ...PUBLISHED_DEPLOYED_RULES.casino,
      coin_flip: null,
      wheel: null,
    });
    expect(rules.display).toEqual(PUBLISHED_DEPLOYED_RULES.display);
  });

  test("snake_case keys become the value's camelCase; tables merge key by key; an empty file is the published rules", () => {
    const parsed = parseDeployedRulesFile(
      'casino:\n  roulette: { even_money: 1.98 }\n  keno: { paytable: { 3: { 2: 2.5 } }, draw: uniform }\n  plinko: { tables: { high: { 8: [30, 4, 1.5, 0.3, 0.2] } } }\ndisplay: { amount_won_places: 4 }\n',
      'rules.yaml',
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value.casino.roulette).toEqual({ number: 34.825, evenMoney: 1.98, dozenColumn: 2.985 });
    expect(parsed.value.casino.keno.paytable[3]).toEqual({ 2: 2.5, 3: 50 });
    expect(parsed.value.casino.keno.paytable[4]).toEqual(PUBLISHED_DEPLOYED_RULES.casino.keno.paytable[4]);
    expect(parsed.value.casino.keno.draw).toBe('uniform');
    expect(parsed.value.casino.plinko.tables.high[8]).toEqual([30, 4, 1.5, 0.3, 0.2]);
    expect(parsed.value.casino.plinko.tables.high[12]).toEqual(PUBLISHED_DEPLOYED_RULES.casino.plinko.tables.high[12]);
    expect(parsed.value.display).toEqual({ amountWonPlaces: 4, newBalancePlaces: 2, multiplierOnLoss: true });
    const empty = parseDeployedRulesFile('', 'empty.yaml');
    expect(empty).toEqual({ ok: true, value: PUBLISHED_DEPLOYED_RULES });
  });

  test('a bad file reports every error with its path and line, sorted', () => {
    const text = [
      'casino:',
      '  coin_flip: { payuot: 1.97, heads_below: 120 }',
      '  wheel: { compare: fractions, sectors: [[2, 0.7], [3, 0.6]] }',
      '  plinko: { tables: { low: { 8: [1, 2] } } }',
      '  keno: { paytable: { 2: { 3: 5 } } }',
      '  dice: { edge_factor: -1 }',
      '  roulette: { number: 1e-7 }',
      '  poker: {}',
      'money: { float_noise: "yes" }',
      'display: { amount_won_places: 7 }',
      'extra: 1',
    ].join('\n');
    const parsed = parseDeployedRulesFile(text, 'bad.yaml');
    expect(parsed.ok).toBe(false);
    const lines = parsed.ok ? [] : parsed.message.split('\n');
    expect(lines).toEqual([
      'bad.yaml:2 casino.coin_flip.heads_below: heads_below is a roll from 0 to 100',
      "bad.yaml:2 casino.coin_flip.payuot: unknown key 'payuot'",
      'bad.yaml:3 casino.wheel.compare: Invalid option: expected one of "percent"|"fraction"',
      "bad.yaml:3 casino.wheel.sectors: the sectors' probabilities add up to at most 1 (the rest is BUST)",
      'bad.yaml:4 casino.plinko.tables.low.8: 8 rows: 5 values, slot 0 to the centre',
      'bad.yaml:5 casino.keno.paytable.2.3: 2 spots catch at most 2',
      'bad.yaml:6 casino.dice.edge_factor: an edge factor is above 0',
      'bad.yaml:7 casino.roulette.number: a multiplier is a plain decimal such as 1.97',
      "bad.yaml:8 casino.poker: unknown key 'poker'",
      'bad.yaml:9 money.float_noise: expected true or false',
      'bad.yaml:10 display.amount_won_places: at most 6 decimal places (afp keeps micro-USDC)',
      "bad.yaml:11 extra: unknown key 'extra'",
    ]);
  });

  test('bets.minimum: one minimum for every game, a positive USDC amount of at most 6 decimals up to 1,000', () => {
    expect(PUBLISHED_DEPLOYED_RULES.bets).toEqual({ minimum: 0.01 });
    const parsed = parseDeployedRulesFile('bets: { minimum: 0.05 }\n', 'rules.yaml');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value.bets).toEqual({ minimum: 0.05 });
    expect(parsed.value.casino).toEqual(PUBLISHED_DEPLOYED_RULES.casino);
    const refused = (minimum: string): string => {
      const result = parseDeployedRulesFile(`bets: { minimum: ${minimum} }\n`, 'bad.yaml');
      return result.ok ? 'accepted' : result.message;
    };
    expect(refused('0')).toBe('bad.yaml:1 bets.minimum: an amount is above 0');
    expect(refused('0.0000001')).toBe('bad.yaml:1 bets.minimum: an amount has at most 6 decimals');
    expect(refused('1001')).toBe('bad.yaml:1 bets.minimum: an amount is at most 1000');
    expect(refused('"0.05"')).toBe('bad.yaml:1 bets.minimum: expected an amount in USDC (a number such as 0.05)');
    expect(refused('1000')).toBe('accepted');
  });

  test('duplicate keys and YAML syntax errors are errors too', () => {
    const duplicate = parseDeployedRulesFile(
      'casino:\n  coin_flip: { payout: 1.97 }\n  coin_flip: { payout: 1.98 }\n',
      'dup.yaml',
    );
    expect(duplicate.ok).toBe(false);
    expect(duplicate.ok ? '' : duplicate.message).toMatch(/^dup\.yaml:3 casino\.coin_flip: /);
    expect(parseDeployedRulesFile('casino: [', 'syntax.yaml').ok).toBe(false);
  });

  test('the shipped example targets/deployed-rules.yaml is valid', () => {
    const parsed = parseDeployedRulesFile(
      readFileSync(join(root, 'targets', 'deployed-rules.yaml'), 'utf8'),
      'targets/deployed-rules.yaml',
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.value.casino.coin_flip.payout).toBe(1.97);
    expect(parsed.value.money.floatNoise).toBe(true);
  });

  test('schemas/deployed-rules.schema.json is fresh (run node scripts/gen-schema.ts)', () => {
    expect(readFileSync(join(root, 'schemas', 'deployed-rules.schema.json'), 'utf8')).toBe(
      renderDeployedRulesJsonSchema(),
    );
  });

  test('afp serve: --rules and --lift-deployed-limits need --dialect deployed; with it they are kept', () => {
    const nowMs = Date.parse('2025-06-01T00:00:00Z');
    expect(parseServeArgs(['--rules', 'r.yaml', '--lift-deployed-limits'], nowMs)).toEqual({
      errors: [
        "--rules needs --dialect deployed (the rules are the deployed casino's)",
        '--lift-deployed-limits needs --dialect deployed',
      ],
    });
    expect(
      parseServeArgs(['--dialect', 'deployed', '--rules', 'r.yaml', '--lift-deployed-limits'], nowMs),
    ).toMatchObject({ dialect: 'deployed', rules: 'r.yaml', liftDeployedLimits: true });
    expect(parseServeArgs(['--dialect', 'deployed'], nowMs)).not.toHaveProperty('rules');
  });
});
