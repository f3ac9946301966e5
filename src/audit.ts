// FACE HEADER

// GROUP audit/live
export {
  auditEdgeLive,
  type EdgeAuditOptions,
  type EdgeAuditResult,
  LIVE_BETS_MAX,
  singleBetShare,
} from './audit/live/edge-audit.ts';
export { statedText, verdictText } from './audit/live/edge-cells.ts';
export { auditEta } from './audit/live/edge-eta.ts';
export { recordEdgeFindings } from './audit/live/edge-findings.ts';
export { type PlannedVariant, planVariants } from './audit/live/edge-plan.ts';
export {
  edgeReportTable,
  renderEdgeAuditCsv,
  renderEdgeAuditJson,
  renderEdgeAuditTable,
} from './audit/live/edge-table.ts';
export { auditFairnessLive, type FairnessAuditOptions, type FairnessAuditResult } from './audit/live/fairness-audit.ts';
export { renderFairnessJson, renderFairnessTable } from './audit/live/fairness-table.ts';
export { recordListedFindings } from './audit/live/listed-findings.ts';
export { type ListedWords, readListedWords } from './audit/live/listed-words.ts';
export { recordRestatedRules } from './audit/live/restated-findings.ts';

// GROUP audit/probes
export { runMoneyProbes } from './audit/probes/money-probes.ts';
export { POT_PROBES, runPotProbes } from './audit/probes/pot-probes.ts';
export { type ProbeResult, unansweredLine } from './audit/probes/probe-context.ts';
export { type ReplayProbeResult, runReplayProbes } from './audit/probes/replay-probes.ts';
export { readResumeFile } from './audit/probes/resume-file.ts';
export { runSettlementProbes, type SettlementResult } from './audit/probes/settlement-probes.ts';
export { leaveSettlementProbes, resumeSettlement } from './audit/probes/settlement-resume.ts';
export { timePassageOf } from './audit/probes/time-passage.ts';

// GROUP audit/report
export { renderEdgeReportHtml, writeEdgeAuditFiles } from './audit/report/edge-audit-files.ts';
export { renderEdgeCsv, renderEdgeJson, renderEdgeTable } from './audit/report/edge-table.ts';
