// FACE HEADER

// GROUP edge
export {
  defectGameSource,
  defectShortName,
  EDGE_DEFECTS,
  type EdgeDefect,
  isEdgeDefect,
  NON_EDGE_DEFECTS,
} from './edge/defective-games.ts';
export {
  loadGameSource,
  MAX_WORKERS,
  type ParallelEdgeSimulationOptions,
  REGISTRY_SOURCE,
  selectGames,
  simulateHouseEdgeInWorkers,
} from './edge/edge-simulation-workers.ts';
export {
  type EdgeRow,
  type EdgeSimulation,
  type EdgeSimulationOptions,
  MAX_BETS_PER_GAME,
  minimumBetsPerGame,
  simulateHouseEdge,
} from './edge/edge-simulation.ts';
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

// GROUP fairness
export { schemeByName } from './fairness/schemes.ts';
export { verifyWireBet } from './fairness/verify-wire-bet.ts';
export { parseAuditTrail } from './fairness/wire-bet.ts';
