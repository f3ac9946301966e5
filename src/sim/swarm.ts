/**
 * Swarm testing (`--swarm`), in the manner of TigerBeetle's VOPR: from each seed, draw which fault
 * windows, tiers, game closures and population mix the run gets, so that a sweep explores runs its
 * author never wrote (a pro escrow seller during a faucet outage, half the buyers, dice closed
 * twice) instead of one scenario many times. Why on the YAML text: the drawn run is a scenario file
 * a person can read, `afp run` can replay and `afp shrink` can cut, with the author's comments kept.
 * Draws, each from the seed's own stream (fork 'swarm', so the run's own streams are untouched):
 * every population keeps all, a half or a quarter of its agents (at least one) and gets a tier
 * (free 6 : pro 3 : enterprise 1); zero to three fault windows on the services the scenario's
 * populations use (each archetype's `service`), each at most a quarter of the run, none overlapping another of its service; and,
 * for a scenario with casino populations, zero to two closures of a random game. The scenario's
 * own faults and closures stay.
 * Invariants: deterministic (the same text and seed draw the same file); the file it writes parses
 * whenever the input did (windows inside the run, at whole seconds). Not drawn: clock jumps (the
 * virtual clock already runs to every timer's exact instant; a jump would only skip agent wakes).
 */
import { isMap, isSeq, parseDocument, type Document } from 'yaml';
import { assert } from '../core/assert.ts';
import { Rng } from '../core/rng.ts';
import { GAME_IDS } from '../services/casino/games/game.ts';
import { formatDuration } from '../scenario/duration.ts';
import type { AnyAgentDefinition } from '../agent/agent.ts';
import { formatScenarioErrors, parseScenario, type Scenario } from '../scenario/scenario.ts';

const TIERS = ['free', 'pro', 'enterprise'] as const;
const TIER_WEIGHTS = [6, 3, 1];
const SHARES = [1, 2, 4] as const;
const FAULTS_MAX = 3;
const CLOSURES_MAX = 2;
const SECOND_MS = 1_000;

export interface SwarmDraw {
  /** The drawn scenario file. */
  readonly text: string;
  /** One line per draw, for the run's output. */
  readonly lines: readonly string[];
}

interface Window {
  readonly fromMs: number;
  readonly untilMs: number;
}

/** A window inside the run, at whole seconds, at most a quarter of it (at least a second). */
function drawWindow(rng: Rng, durationMs: number): Window {
  const seconds = Math.max(1, Math.floor(durationMs / SECOND_MS));
  const lengthSeconds = 1 + rng.int(Math.max(1, Math.floor(seconds / 4)));
  const fromSeconds = rng.int(Math.max(1, seconds - lengthSeconds + 1));
  return { fromMs: fromSeconds * SECOND_MS, untilMs: (fromSeconds + lengthSeconds) * SECOND_MS };
}

const overlaps = (a: Window, b: Window): boolean => a.fromMs < b.untilMs && b.fromMs < a.untilMs;

/** The swarm's draw for `seed` over a scenario (`text` parsed as `scenario`). */
export function swarmDraw(
  text: string,
  scenario: Scenario,
  seed: string,
  agents: Readonly<Record<string, AnyAgentDefinition>>,
): SwarmDraw {
  const rng = new Rng(seed).fork('swarm');
  const document: Document = parseDocument(text);
  // The drawn file runs as drawn without --seed: `afp run swarm.yaml` is the run `--swarm` made.
  document.set('seed', seed);
  const lines: string[] = [];
  const draw: SwarmDrawing = { rng, document, scenario, lines };
  const services = drawPopulations(draw, agents);
  drawFaults(draw, services);
  if (services.has('casino')) drawClosures(draw);
  const header = `# Drawn by afp --swarm from ${scenario.name} for seed ${seed}: ${lines.join('; ')}\n`;
  return { text: header + document.toString({ lineWidth: 0 }), lines };
}

/** What the swarm's steps draw with and into: the forked rng, the scenario's YAML document, the lines that say what was drawn. */
interface SwarmDrawing {
  readonly rng: Rng;
  readonly document: Document;
  readonly scenario: Scenario;
  readonly lines: string[];
}

/** Each population's count (a share of the scenario's) and tier; the services its agents call. */
function drawPopulations(draw: SwarmDrawing, agents: Readonly<Record<string, AnyAgentDefinition>>): Set<string> {
  const { rng, document, scenario, lines } = draw;
  const services = new Set<string>();
  scenario.populations.forEach((population, index) => {
    const share = SHARES[rng.int(SHARES.length)] as number;
    const count = Math.max(1, Math.ceil(population.count / share));
    const tier = TIERS[rng.weighted(TIER_WEIGHTS)] as (typeof TIERS)[number];
    document.setIn(['populations', index, 'count'], count);
    document.setIn(['populations', index, 'tier'], tier);
    const service = agents[population.agent]?.service;
    if (service !== undefined) services.add(service);
    lines.push(`${population.agent}: ${count} of ${population.count}, ${tier}`);
  });
  return services;
}

/** Up to FAULTS_MAX fault windows on the services called, none overlapping another of its service. */
function drawFaults(draw: SwarmDrawing, services: ReadonlySet<string>): void {
  const { rng, document, scenario, lines } = draw;
  const taken: { service: string; window: Window }[] = scenario.faults.map((fault) => ({
    service: fault.service,
    window: { fromMs: fault.fromMs, untilMs: fault.fromMs + fault.forMs },
  }));
  // Agents that cross services (bad input, rate-limit abuse) call the faucet and the escrow.
  const candidates = services.size === 0 ? ['escrow', 'faucet'] : [...services].sort();
  const faultCount = rng.int(FAULTS_MAX + 1);
  for (let drawn = 0; drawn < faultCount; drawn++) {
    const service = candidates[rng.int(candidates.length)] as string;
    const window = drawWindow(rng, scenario.durationMs);
    const answer = rng.chance(1, 2) ? 500 : 503;
    if (taken.some((other) => other.service === service && overlaps(other.window, window))) continue;
    taken.push({ service, window });
    const fault = document.createNode({
      service,
      from: formatDuration(window.fromMs),
      for: formatDuration(window.untilMs - window.fromMs),
      answer,
    });
    fault.flow = true;
    if (isSeq(document.get('faults'))) document.addIn(['faults'], fault);
    else document.set('faults', document.createNode([fault]));
    lines.push(
      `fault: ${service} answers ${answer} from ${formatDuration(window.fromMs)} for ${formatDuration(window.untilMs - window.fromMs)}`,
    );
  }
}

/** Up to CLOSURES_MAX casino game closures, none overlapping another of its game. */
function drawClosures(draw: SwarmDrawing): void {
  const { rng, document, scenario, lines } = draw;
  const closureCount = rng.int(CLOSURES_MAX + 1);
  const closed: { game: string; window: Window }[] = scenario.casino.closures.map((closure) => ({
    game: closure.game,
    window: { fromMs: closure.fromMs, untilMs: closure.fromMs + closure.forMs },
  }));
  for (let drawn = 0; drawn < closureCount; drawn++) {
    const game = GAME_IDS[rng.int(GAME_IDS.length)] as string;
    const window = drawWindow(rng, scenario.durationMs);
    if (closed.some((other) => other.game === game && overlaps(other.window, window))) continue;
    closed.push({ game, window });
    const closure = document.createNode({
      game,
      from: formatDuration(window.fromMs),
      for: formatDuration(window.untilMs - window.fromMs),
    });
    closure.flow = true;
    if (!isMap(document.get('casino'))) document.set('casino', document.createNode({}));
    if (isSeq(document.getIn(['casino', 'closures']))) document.addIn(['casino', 'closures'], closure);
    else document.setIn(['casino', 'closures'], document.createNode([closure]));
    lines.push(
      `closure: ${game} from ${formatDuration(window.fromMs)} for ${formatDuration(window.untilMs - window.fromMs)}`,
    );
  }
}

/** The scenario `--swarm` draws for `seed` from the file's text (parsed as `scenario`), against the archetype table `agents`. */
export function swarmScenario(
  text: string,
  scenario: Scenario,
  file: string,
  seed: string,
  agents: Readonly<Record<string, AnyAgentDefinition>>,
): SwarmDraw & { readonly scenario: Scenario } {
  const drawn = swarmDraw(text, scenario, seed, agents);
  const parsed = parseScenario(drawn.text, {
    fileName: file,
    agentParams: (name) => agents[name]?.params,
    knownAgents: Object.keys(agents),
  });
  // The draw keeps every window inside the run and every count positive: a refusal is afp's bug.
  assert(
    parsed.ok,
    `the swarm's draw for seed ${seed} parses: ${parsed.ok ? '' : formatScenarioErrors(file, parsed.errors)}`,
  );
  return { ...drawn, scenario: parsed.scenario };
}
