/**
 * Shrinking a property agent's action list inside `afp shrink` (shrink-run.ts): once the whole-run
 * passes have left a property population of one agent, its list — the one the agent drew, or the
 * one the file already names — is shrunk by fast-check's own shrinker for the list's arbitrary
 * (src/check/property-actions.ts), and kept in the file as `params.actions`, which the agent
 * replays exactly. Why one agent: `params` belongs to a population, so an explicit list is one
 * agent's only when the population is that agent alone (`first: k, count: 1` keeps its identity);
 * a small property population left by the whole-run passes is split into one-agent populations.
 * How: fast-check's shrink stream of the current list, tried in order; the first candidate whose
 * run still fails the same invariant first is kept and shrunk in turn; it ends when no candidate
 * fails or the caller's run budget is spent (the caller's `attempt` refuses past it).
 * Invariant: deterministic (the stream of a list is a function of the list).
 */
import { isMap, isSeq, type Document } from 'yaml';
import {
  actionCommand,
  agentActions,
  propertyParams,
  servicesOf,
  shrinkableListArbitrary,
  type PropertyParams,
  type PropertyService,
} from '../check.ts';
import { Rng } from '../core/rng.ts';
import { firstArchetypeIndexes } from '../agent/agent-numbering.ts';

/** The archetype name of property populations (agents/index.ts). */
const PROPERTY = 'property';

export interface ActionShrinkHost {
  readonly document: () => Document;
  readonly seed: string;
  /** Runs the edited copy and keeps it when it still fails the same way (the same invariant first, or liveness). */
  readonly attempt: (edit: (copy: Document) => void, step: string) => Promise<boolean>;
  /** False once the run budget is spent. */
  readonly canRun: () => boolean;
}

interface PopulationView {
  readonly agent: string;
  readonly count: number;
  readonly first: number;
}

function populationsOf(document: Document): PopulationView[] {
  const listed = document.toJS() as { populations?: { agent?: unknown; count?: unknown; first?: unknown }[] };
  return (listed.populations ?? []).map((population) => ({
    agent: String(population.agent),
    count: typeof population.count === 'number' ? population.count : 1,
    first: typeof population.first === 'number' ? population.first : 0,
  }));
}

/** The list the agent of population `index` runs now: written, or drawn from its stream. */
function currentActions(
  host: ActionShrinkHost,
  index: number,
  archetypeIndex: number,
): { params: PropertyParams; actions: number[] } | null {
  const params: unknown = host.document().getIn(['populations', index, 'params']);
  const parsed = propertyParams.safeParse(isMap(params) ? params.toJSON() : {});
  if (!parsed.success) return null;
  const agentRng = new Rng(host.seed).fork('agents').fork(`${PROPERTY}-${archetypeIndex}`);
  return { params: parsed.data, actions: [...agentActions(parsed.data, agentRng)] };
}

/** Labels shown above a written list, so a person reads what the integers do. */
const LABELS_SHOWN_MAX = 12;

/** The comment above a population with a written list: the first actions' commands, in order. */
function actionsComment(services: readonly PropertyService[], list: readonly number[]): string {
  const labels = list
    .slice(0, LABELS_SHOWN_MAX)
    .map((action) => ` ${action}: ${actionCommand(services, action).label}`);
  const more = list.length > LABELS_SHOWN_MAX ? [` … and ${list.length - LABELS_SHOWN_MAX} more`] : [];
  return [
    ` ${list.length} action${list.length === 1 ? '' : 's'} (after the registrations of a0, a1, a2):`,
    ...labels,
    ...more,
  ].join('\n');
}

/** A property population of at most this many agents is split into one-agent populations first. */
const SPLIT_MAX = 16;

/**
 * `first: f, count: c` becomes c populations of one agent (`first: f`, then `first: 0` each: the
 * next index), the same params: the same agents in the same order, so the run is the same one.
 * Why: the whole-run passes cannot always reach one agent (another property agent's draws on the
 * platform's shared rng can be what makes the failing bet lose or win).
 */
async function splitPopulations(host: ActionShrinkHost): Promise<boolean> {
  let changed = false;
  const populations = populationsOf(host.document());
  for (let index = populations.length - 1; index >= 0; index--) {
    const population = populations[index] as PopulationView;
    if (population.agent !== PROPERTY || population.count < 2 || population.count > SPLIT_MAX) continue;
    const split = (copy: Document): void => {
      const list = copy.get('populations');
      const node: unknown = copy.getIn(['populations', index]);
      if (!isSeq(list) || !isMap(node)) return;
      const single = Array.from({ length: population.count }, (_, offset) => {
        const agent = node.clone();
        agent.set('count', 1);
        if (offset > 0) agent.delete('first');
        return agent;
      });
      list.items.splice(index, 1, ...single);
    };
    if (host.canRun() && (await host.attempt(split, `${PROPERTY} population ${index} as ${population.count} of one`)))
      changed = true;
  }
  return changed;
}

/** Shrinks each one-agent property population's list; true when any list changed. */
export async function shrinkPropertyActions(host: ActionShrinkHost): Promise<boolean> {
  let changed = await splitPopulations(host);
  const populations = populationsOf(host.document());
  const starts = firstArchetypeIndexes(populations);
  for (const [index, population] of populations.entries()) {
    if (population.agent !== PROPERTY || population.count !== 1) continue;
    const drawn = currentActions(host, index, starts[index] as number);
    if (drawn === null) continue;
    const services = servicesOf(drawn.params);
    let actions: number[] = drawn.actions;
    const arbitrary = shrinkableListArbitrary(actions.length);
    let progressed = true;
    while (progressed && host.canRun()) {
      progressed = false;
      for (const candidate of arbitrary.shrink(actions, undefined) as Iterable<{ value: number[] }>) {
        if (!host.canRun()) break;
        const list: number[] = candidate.value;
        const kept = await host.attempt(
          (copy) => {
            copy.setIn(['populations', index, 'params', 'actions'], copy.createNode(list, { flow: true }));
            const node: unknown = copy.getIn(['populations', index]);
            if (isMap(node)) node.commentBefore = actionsComment(services, list);
          },
          `${PROPERTY}-${starts[index] as number}: ${list.length} actions`,
        );
        if (kept) {
          actions = list;
          progressed = true;
          changed = true;
          break;
        }
      }
    }
  }
  return changed;
}
