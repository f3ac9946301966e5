/**
 * `--swarm`: each seed draws its own population mix, tiers, fault windows and closures as a
 * scenario file; the draw is deterministic, always parses (every shipped scenario, many seeds),
 * keeps the author's text and windows inside the run, and differs between seeds. `afp run --swarm`
 * prints the draws, writes swarm.yaml, and its reproduce line names --swarm; the written file run
 * without --swarm gives the same reports.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES, AGENTS } from '../../agents/index.ts';
import { main as runEnding } from '../../src/cli/run.ts';
import { parseScenario, type Scenario } from '../../src/scenario/scenario.ts';
import { swarmDraw, swarmScenario } from '../../src/sim/swarm.ts';
import { coded } from '../cli/ending-code.ts';

const runMain = coded(runEnding);

const work = mkdtempSync(join(tmpdir(), 'afp-swarm-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function parse(text: string, file: string): Scenario {
  const parsed = parseScenario(text, {
    fileName: file,
    agentParams: (name) => AGENTS[name]?.params,
    knownAgents: AGENT_NAMES,
  });
  if (!parsed.ok) throw new Error(`${file}: ${JSON.stringify(parsed.errors)}`);
  return parsed.scenario;
}

describe('swarm draws', () => {
  it('parse for every shipped scenario and seed, inside the run, deterministic, and different across seeds', () => {
    for (const name of readdirSync('scenarios').filter((file) => file.endsWith('.yaml'))) {
      const file = join('scenarios', name);
      const text = readFileSync(file, 'utf8');
      const scenario = parse(text, file);
      const texts = new Set<string>();
      for (let seed = 1; seed <= 12; seed++) {
        const drawn = swarmScenario(text, scenario, file, String(seed), AGENTS);
        expect(swarmDraw(text, scenario, String(seed), AGENTS).text, `${name} seed ${seed} again`).toBe(drawn.text);
        texts.add(drawn.text);
        expect(drawn.scenario.durationMs).toBe(scenario.durationMs);
        for (const [index, population] of drawn.scenario.populations.entries()) {
          expect(population.count, `${name} seed ${seed}`).toBeGreaterThanOrEqual(1);
          expect(population.count).toBeLessThanOrEqual((scenario.populations[index] as { count: number }).count);
        }
        for (const fault of drawn.scenario.faults)
          expect(fault.fromMs + fault.forMs).toBeLessThanOrEqual(scenario.durationMs);
        for (const closure of drawn.scenario.casino.closures)
          expect(closure.fromMs + closure.forMs).toBeLessThanOrEqual(scenario.durationMs);
        expect(drawn.text).toContain(text.split('\n').find((line) => line.startsWith('#')) ?? '');
      }
      expect(texts.size, `${name}: draws differ across seeds`).toBeGreaterThan(6);
    }
  });

  it('afp run --swarm prints its draws, writes swarm.yaml, and that file alone reproduces the run', async () => {
    let out = '';
    const io = { out: (text: string) => (out += text), err: () => undefined, errIsTty: false };
    expect(await runMain(['scenarios/k6-smoke.yaml', '--swarm', '--seed', '4', '--out', join(work, 'a')], io)).toBe(0);
    expect(out).toMatch(/^seed: 4\nswarm: faucet-farmer: \d+ of 2, (free|pro|enterprise)\n/);
    const written = readFileSync(join(work, 'a', 'swarm.yaml'), 'utf8');
    expect(written).toMatch(/^# Drawn by afp --swarm from k6-smoke for seed 4: /);
    let again = '';
    expect(
      // Without --seed: the file carries the seed it was drawn for.
      await runMain([join(work, 'a', 'swarm.yaml'), '--out', join(work, 'b')], {
        ...io,
        out: (text: string) => (again += text),
      }),
    ).toBe(0);
    expect(again).toMatch(/^seed: 4\n/);
    expect(again.split('\n').at(-2)).toBe(out.split('\n').at(-2));
    // Every report but summary.json (which names the command that made it) is the same, byte for byte.
    const reports = readdirSync(join(work, 'a')).filter((file) => file !== 'summary.json' && file !== 'swarm.yaml');
    expect(reports.length).toBeGreaterThan(2);
    for (const file of reports)
      expect(readFileSync(join(work, 'b', file), 'utf8'), file).toBe(readFileSync(join(work, 'a', file), 'utf8'));
  });
});
