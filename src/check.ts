// FACE HEADER

// GROUP check
export { CheckMismatch } from './check/check-mismatch.ts';
export {
  type CheckCapabilities,
  type CheckModel,
  createModel,
  modelFaults,
  type RunNames,
} from './check/check-model.ts';
export { LOOSE_TIME_TOLERANCE_MS, runNames } from './check/check-target.ts';
export { CheckUnavailable } from './check/check-unavailable.ts';
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
export { type CheckStop } from './check/replay-path.ts';
export { type CheckFailure, type CheckResult, failureEnding, runCheck } from './check/run-check.ts';

// GROUP check/dialect
export {
  DIALECT_MAX_COMMANDS,
  type DialectCheckOptions,
  type DialectCheckResult,
  runDialectCheck,
} from './check/dialect/run-dialect-check.ts';
export { type AccountService, openServiceAccount, sharedAccounts } from './check/dialect/service-accounts.ts';

// GROUP check/faucet
export { registerCommand } from './check/faucet/command-faucet.ts';
