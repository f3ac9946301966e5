// The face of src/check/: the reference model and the property checks. Why a face: the folder's
// other files are its internals, which no file outside src/check/ imports (.dependency-cruiser.cjs
// FACES, rule face-check). Light doors (LIGHT_DOORS): check-options.ts (MAX_COMMANDS and the options'
// checks, read before a check loads).

// Running a check against the in-process platform
export { type CheckFailure, type CheckResult, failureEnding, runCheck } from './check/run-check.ts';
export { LOOSE_TIME_TOLERANCE_MS, runNames } from './check/check-target.ts';
export { type CheckStop } from './check/replay-path.ts';
export { CheckMismatch } from './check/check-mismatch.ts';
export { CheckUnavailable } from './check/check-unavailable.ts';

// Running a check against a live target, through its dialect
export {
  DIALECT_MAX_COMMANDS,
  type DialectCheckOptions,
  type DialectCheckResult,
  runDialectCheck,
} from './check/dialect/run-dialect-check.ts';
export { type AccountService, openServiceAccount, sharedAccounts } from './check/dialect/service-accounts.ts';

// The model and its commands (for the property archetype and the replay)
export {
  type CheckCapabilities,
  type CheckModel,
  createModel,
  modelFaults,
  type RunNames,
} from './check/check-model.ts';
export { type CheckSystem, ModelCommand } from './check/model-command.ts';
export { advanceModel } from './check/model-time.ts';
export {
  actionCommand,
  agentActions,
  propertyParams,
  type PropertyParams,
  type PropertyService,
  servicesOf,
  shrinkableListArbitrary,
} from './check/property-actions.ts';
export { registerCommand } from './check/faucet/command-faucet.ts';
