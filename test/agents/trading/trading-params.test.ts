// A trading archetype's asset is checked when the scenario is read: an asset the venue does not
// list is a scenario error with its path and line (exit 2 in afp run and afp scenario check),
// where it made every quote a 404 and the run fail agent-assertions.
import { describe, expect, test } from 'vitest';
import { AGENT_NAMES, AGENTS } from '../../../agents/index.ts';
import { parseScenario } from '../../../src/scenario/scenario.ts';

const parse = (text: string) =>
  parseScenario(text, {
    fileName: 'trading.yaml',
    agentParams: (agent) => AGENTS[agent]?.params,
    knownAgents: AGENT_NAMES,
  });

describe('trading archetypes take listed assets only', () => {
  test('an unknown market is refused with its path and line; listed ones pass', () => {
    const parsed = parse(`name: assets
duration: 1d
populations:
  - agent: momentum-trader
    count: 1
    params: { market: NOPE }
  - agent: market-maker
    count: 1
    params: { market: NOPE }
  - agent: market-maker
    count: 1
    params: { market: AAPL, market_type: spot }
  - agent: leveraged-gambler
    count: 1
    params: { markets: [BTC, XX] }
  - agent: funding-harvester
    count: 1
    params: { markets: [YY] }
`);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors.map((error) => [error.path, error.line])).toEqual([
      ['populations[0].params.market', 6],
      ['populations[1].params.market', 9],
      ['populations[2].params.market', 12],
      ['populations[3].params.markets[1]', 15],
      ['populations[4].params.markets[0]', 18],
    ]);
    expect(parsed.errors[0]?.message).toMatch(/an asset the venue lists a perpetual of/);
    expect(parsed.errors[2]?.message).toMatch(/no spot market of AAPL/);

    const listed = parse(`name: assets
duration: 1d
populations:
  - { agent: momentum-trader, count: 1, params: { market: kPEPE } }
  - { agent: market-maker, count: 1, params: { market: GOLD } }
  - { agent: market-maker, count: 1, params: { market: ETH, market_type: spot } }
  - { agent: leveraged-gambler, count: 1, params: { markets: [AAPL, BTC] } }
`);
    expect(listed.ok, listed.ok ? '' : JSON.stringify(listed.errors)).toBe(true);
  });
});
