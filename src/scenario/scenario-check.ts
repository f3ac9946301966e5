/**
 * Semantic checks of a scenario: settings each valid on its own that together are impossible or
 * meaningless, reported with their path before anything runs (exit 2 with the schema's errors,
 * scenario.ts `parseScenario`). Each check is a row of a table, as the agents are:
 * - MIX_ROWS: parameters that are the chances of one draw (an escrow's settlement) must sum to 1
 *   (10,000 basis points) once defaults fill the unset ones — release 1, refund 1, dispute 1 and
 *   let_expire 0.6 sum to 3.6, which the draw would silently read as weights;
 * - PEER_ROWS: an archetype that acts on agents of another archetype (the escrow buyer's
 *   counterparty, the challenger's target, the batch bettor's referrer) needs a population of it,
 *   and at least one agent other than itself (the directory never picks the asker).
 * Pure: a function of the parsed populations (params as the archetypes' schemas output them:
 * probabilities in basis points) and of what the file wrote (to point at the key when it is there).
 * Non-goals: checks of one field (the schemas do those), and guesses about intent — only settings
 * that cannot do what they say are reported.
 */
import { BASIS_POINTS } from './probability.ts';

export interface CheckedPopulation {
  readonly agent: string;
  readonly count: number;
  /** The archetype's parsed params (defaults applied); undefined when they did not parse. */
  readonly params: Readonly<Record<string, unknown>> | undefined;
  /** The params as written in the file (empty when none). */
  readonly written: Readonly<Record<string, unknown>>;
}

export interface SemanticIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

interface MixRow {
  readonly agent: string;
  readonly fields: readonly string[];
  readonly what: string;
}

interface PeerRow {
  readonly agent: string;
  /** The params field naming the other archetype. */
  readonly field: string;
  readonly role: string;
  /** When the field matters (default: always). */
  readonly applies?: (params: Readonly<Record<string, unknown>>) => boolean;
}

export const MIX_ROWS: readonly MixRow[] = [
  {
    agent: 'escrow-buyer',
    fields: ['release', 'refund', 'dispute', 'let_expire'],
    what: "the chances of one escrow's settlement",
  },
];

export const PEER_ROWS: readonly PeerRow[] = [
  { agent: 'escrow-buyer', field: 'counterparty', role: 'receive its escrows' },
  { agent: 'challenger', field: 'target', role: 'be challenged' },
  { agent: 'batch-bettor', field: 'referrer', role: 'refer it', applies: (params) => params['referred'] !== 0 },
  { agent: 'referral-recruiter', field: 'referrer', role: 'refer it', applies: (params) => params['referred'] !== 0 },
];

const probabilityText = (points: number): string => String(points / BASIS_POINTS);

function mixIssues(population: CheckedPopulation, position: number): SemanticIssue[] {
  const params = population.params;
  if (params === undefined) return [];
  return MIX_ROWS.filter((row) => row.agent === population.agent).flatMap((row) => {
    const values = row.fields.map((field) => params[field]);
    if (!values.every((value): value is number => typeof value === 'number')) return [];
    const sum = values.reduce((total, value) => total + value, 0);
    if (sum === BASIS_POINTS) return [];
    const parts = row.fields.map(
      (field, index) =>
        `${field} ${probabilityText(values[index] as number)}${field in population.written ? '' : ' (default)'}`,
    );
    const path =
      Object.keys(population.written).length === 0 ? ['populations', position] : ['populations', position, 'params'];
    return [
      {
        path,
        message: `${row.fields.join(', ')} are ${row.what} and must sum to 1; they sum to ${probabilityText(sum)} (${parts.join(', ')})`,
      },
    ];
  });
}

function peerIssues(
  population: CheckedPopulation,
  position: number,
  counts: ReadonlyMap<string, number>,
): SemanticIssue[] {
  const params = population.params;
  if (params === undefined) return [];
  return PEER_ROWS.filter((row) => row.agent === population.agent && (row.applies?.(params) ?? true)).flatMap((row) => {
    const peer = params[row.field];
    if (typeof peer !== 'string') return [];
    const others = (counts.get(peer) ?? 0) - (peer === population.agent ? 1 : 0);
    if (others > 0) return [];
    const path =
      row.field in population.written
        ? ['populations', position, 'params', row.field]
        : ['populations', position, 'agent'];
    const named = row.field in population.written ? `${row.field} '${peer}'` : `${row.field} '${peer}' (the default)`;
    const missing =
      peer === population.agent
        ? `no other agent of archetype '${peer}' (a population of one never finds a peer)`
        : `no population of agent '${peer}'`;
    return [
      {
        path,
        message: `${population.agent} needs agents of its ${named} to ${row.role}, but the scenario has ${missing}`,
      },
    ];
  });
}

/** Every semantic issue of the populations, in population order. */
export function checkScenarioSemantics(populations: readonly CheckedPopulation[]): SemanticIssue[] {
  const counts = new Map<string, number>();
  for (const population of populations)
    counts.set(population.agent, (counts.get(population.agent) ?? 0) + population.count);
  return populations.flatMap((population, position) => [
    ...mixIssues(population, position),
    ...peerIssues(population, position, counts),
  ]);
}
