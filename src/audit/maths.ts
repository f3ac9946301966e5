// The lower door of the audit wing: its pure maths, on the audit-maths layer (below report, sim and
// live, which use it). Why a face of its own: src/audit.ts sits above live, so the lower layers
// could not import it; this file is the one door they (and everything else) use for these names
// (.dependency-cruiser.cjs FACES, rule face-audit). The wing's light face, src/audit/options.ts,
// on this floor too, holds the fairness schemes' names and types.
// The fairness-checker archetype, bundled for k6, imports fairness/wire-bet.ts and
// fairness/verify-wire-bet.ts directly (K6_BUNDLED): this face reaches node:worker_threads.

// House-edge statistics: intervals, the theory, the judgement
export {
  allowedMisses,
  edgeInterval,
  type EdgeInterval,
  type EdgeJudgement,
  edgeTheory,
  type EdgeTheory,
  judgeEdge,
  ReturnTally,
  type TallyData,
} from './edge/edge-statistics.ts';

// House-edge simulation, in this thread or in workers, with the defective games
export {
  type EdgePoint,
  type EdgeRow,
  type EdgeSimulation,
  type EdgeSimulationOptions,
  MAX_BETS_PER_GAME,
  minimumBetsPerGame,
  simulateHouseEdge,
} from './edge/edge-simulation.ts';
export {
  loadGameSource,
  MAX_WORKERS,
  type ParallelEdgeSimulationOptions,
  REGISTRY_SOURCE,
  selectGames,
  simulateHouseEdgeInWorkers,
} from './edge/edge-simulation-workers.ts';
export {
  defectGameSource,
  defectShortName,
  EDGE_DEFECTS,
  type EdgeDefect,
  isEdgeDefect,
  NON_EDGE_DEFECTS,
} from './edge/defective-games.ts';

// Fairness schemes and wire-bet verification
export { schemeByName } from './fairness/schemes.ts';
