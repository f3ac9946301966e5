// FACE HEADER

// GROUP live
export { AccountPool, ACCOUNTS_MAX } from './live/account-pool.ts';
export {
  ANNOUNCED,
  announcedApi,
  announcedMounts,
  deployedDialectRefusal,
  discoverTarget,
  mountField,
  readMounts,
  servedDialects,
} from './live/afp-mounts.ts';
export { announcedText } from './live/announced-limit.ts';
export { betCredit, type BetCredit } from './live/bet-credit.ts';
export { deviationFinding, gatewayFinding } from './live/deviation-findings.ts';
export {
  FAUCET_CLAIM_LIMIT,
  findingOf,
  judge,
  refusalText,
  ruleFinding,
  type RuleName,
  SHOWN_ROUNDING_MICRO,
} from './live/documented-rules.ts';
export { type DnsEntry, type DnsView, type ListedDomain } from './live/domain-views.ts';
export {
  type EvidenceDefaults,
  type FindingSink,
  type RequestEvidence,
  withEvidence,
} from './live/evidenced-findings.ts';
export { type Finding, type FindingInput, FindingsCollector, SEVERITIES, type Severity } from './live/finding.ts';
export { fundLiveAccount, type LiveAccount, type LiveOutcome, openLiveAccount } from './live/live-account.ts';
export { type CallOptions, type CallOutcome, LiveSession } from './live/live-session.ts';
export {
  type EscrowView,
  type LimitOrderView,
  type PositionView,
  type WalletTokenAmount,
} from './live/operation-views.ts';
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
export { rateLimitFinding, summaryOf } from './live/rate-limit-finding.ts';
export { readAnswer, type ReadOutcome } from './live/read-answer.ts';
export { refusalWords } from './live/refusal-text.ts';
export { RemoteServeClock, waitClockOf } from './live/remote-serve-clock.ts';
export { endpointOf } from './live/request-endpoint.ts';
export { type SentRequest } from './live/session-wire.ts';
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
export { loadTargetFile, parseTargetFile, type TargetFileResult } from './live/target-file.ts';
export { type DialectName, type PaceLimit, type Target } from './live/target.ts';

// GROUP live/dialects
export { type Dialect, rowOf } from './live/dialects/dialect.ts';
export { dnsEntryKey } from './live/dialects/dns-entries.ts';
export { dialectByName } from './live/dialects/index.ts';

// GROUP live/probe
export { KEYS_ENV, probeTarget } from './live/probe/probe-target.ts';

// GROUP live/report
export { curlOf } from './live/report/curl.ts';
export { renderFindingsCsv, spreadsheetText } from './live/report/findings-csv.ts';
export { renderFindingsHtml } from './live/report/findings-html.ts';
export { renderFindingsJson } from './live/report/findings-json.ts';
export { renderFindingsJunit } from './live/report/findings-junit.ts';
export {
  type FindingsReport,
  type ReportCheck,
  type ReportFailure,
  type ReportTable,
} from './live/report/findings-report.ts';
export { infoLines, verdictLines } from './live/report/findings-verdict.ts';
export { writeFindingsReports } from './live/report/write-findings.ts';
export { writeReportFiles } from './live/report/write-report-files.ts';
