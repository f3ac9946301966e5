// The face of src/check/: the reference model and the property checks. Why a face: the folder's
// other files are its internals, which no file outside src/check/ imports (.dependency-cruiser.cjs
// FACES, rule face-check). The light face, src/check/options.ts, holds MAX_COMMANDS and the
// options' checks, read before a check loads. The property archetype, bundled for k6 too, imports the model
// and its commands directly (K6_BUNDLED): through this face the k6 script would reach node:* modules.

// Running a check against the in-process platform
export { type CheckFailure, type CheckResult, runCheck } from './check/run-check.ts';
export { runNames } from './check/check-target.ts';
export type { CheckStop } from './check/replay-path.ts';
export { CheckUnavailable } from './check/check-unavailable.ts';

// Running a check against a live target, through its dialect
export {
  DIALECT_MAX_COMMANDS,
  type DialectCheckOptions,
  type DialectCheckResult,
  runDialectCheck,
} from './check/dialect/run-dialect-check.ts';
export { type AccountService, openServiceAccount, sharedAccounts } from './check/dialect/service-accounts.ts';

// The property check's actions, for the shrinker
export {
  actionCommand,
  agentActions,
  propertyParams,
  type PropertyParams,
  type PropertyService,
  servicesOf,
  shrinkableListArbitrary,
} from './check/property-actions.ts';
