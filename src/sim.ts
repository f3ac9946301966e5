// FACE HEADER

// GROUP sim
export { isLivenessLimit } from './sim/liveness.ts';
export { HOLDER_NAMES } from './sim/money-holders.ts';
export { type ProbeCount, PROBES } from './sim/probes.ts';
export { type RunOptions, runScenario, runSimulation, type SimulationResult } from './sim/runner.ts';
export { swarmScenario } from './sim/swarm.ts';
