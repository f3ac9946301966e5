// The face of src/sim/: the deterministic simulator as the rest of afp uses it. Why a face: the
// folder's other files (scheduler, invariants, run records) are its internals, which no file
// outside src/sim/ imports (.dependency-cruiser.cjs FACES, rule face-sim).

// Running a scenario
export { runScenarioWith, runSimulationWith, type SimRunOptions, type SimulationResult } from './sim/runner.ts';
export { swarmScenario } from './sim/swarm.ts';
export { isLivenessLimit } from './sim/liveness.ts';

// The run's probes and money holders
export { type ProbeCount, PROBES } from './sim/probes.ts';
export { HOLDER_NAMES } from './sim/money-holders.ts';
