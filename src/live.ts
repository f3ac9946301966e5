// The face of src/live/: what the rest of afp uses of a live target (target files, sessions and
// accounts on a real deployment, the findings they raise). Findings and their reports are the report
// kit's (src/report/findings/). Why a face: the folder's other files are its internals, which no
// file outside src/live/ imports (.dependency-cruiser.cjs FACES, rule face-live); a reader finds
// the public part here, by concern. `afp target probe` has a face of its own, src/live/probe.ts
// (face-probe): the one part of live a command drives alone, kept light. The light face,
// src/live/options.ts, resolves `--target`, so a command's first step stays cheap.
// The target-file reader (target-file.ts: zod, yaml and the scenario readers, some 190 modules) is
// a door apart (APART_DOORS), not re-exported here: a command given a URL never reads a file, and
// through this face every live command loaded it (resolve-target.ts import()s it for a file).

// The target: its file, what /_afp/mounts says, its dialects
export type { DialectName, PaceLimit, Target } from './live/target.ts';
export {
  ANNOUNCED,
  announcedApi,
  announcedMounts,
  deployedDialectRefusal,
  discoverTarget,
  readMounts,
  servedDialects,
} from './live/afp-mounts.ts';
export { announcedText } from './live/announced-limit.ts';
export { type Dialect, rowOf } from './live/dialects/dialect.ts';
export { dialectByName } from './live/dialects/index.ts';
export { dnsEntryKey } from './live/dialects/dns-entries.ts';

// Sessions and accounts on the target, and the clock its windows run on
export { type CallOptions, type CallOutcome, LiveSession } from './live/live-session.ts';
export type { SentRequest } from './live/session-wire.ts';
export { readAnswer, type ReadOutcome } from './live/read-answer.ts';
export { endpointOf } from './live/request-endpoint.ts';
export { fundLiveAccount, type LiveAccount, type LiveOutcome, openLiveAccount } from './live/live-account.ts';
export { AccountPool, ACCOUNTS_MAX } from './live/account-pool.ts';
export { RemoteServeClock, waitClockOf } from './live/remote-serve-clock.ts';

// Operations and what the target shows of them
export {
  type AuditedBet,
  type BetInput,
  type DnsInput,
  isRefusal,
  type LiveBet,
  type OperationInput,
  type OperationName,
  type OperationResult,
  type Refusal,
} from './live/operations.ts';
export type { EscrowView, LimitOrderView, PositionView, WalletTokenAmount } from './live/operation-views.ts';
export type { DnsEntry, DnsView, ListedDomain } from './live/domain-views.ts';
export { betCredit, type BetCredit } from './live/bet-credit.ts';
export { refusalWords } from './live/refusal-text.ts';

// Findings, and the documented rules they are judged against
export {
  type EvidenceDefaults,
  type FindingSink,
  type RequestEvidence,
  withEvidence,
} from './live/evidenced-findings.ts';
export {
  FAUCET_CLAIM_LIMIT,
  findingOf,
  judge,
  refusalText,
  ruleFinding,
  type RuleName,
  SHOWN_ROUNDING_MICRO,
} from './live/documented-rules.ts';
export { deviationFinding, gatewayFinding } from './live/deviation-findings.ts';
export { rateLimitFinding, summaryOf } from './live/rate-limit-finding.ts';

// Limits the documents state
export { statedBatchMaximum } from './live/stated-batch-maximum.ts';
export { statedDomainMaximum } from './live/stated-domain-maximum.ts';
export { kellyNamed, statedKellyLimitMicro } from './live/stated-kelly-limit.ts';
export {
  documentsMinimumMicro,
  minimumBetFinding,
  minimumRefusal,
  statedCommittedMicro,
  statedMinimumMicro,
} from './live/stated-minimum.ts';

// Findings reports (HTML, JSON, CSV, JUnit) and their verdict lines
export { curlOf } from './live/curl.ts';
