// The face of the audit wing (src/audit/): the live house-edge and fairness audits, the money and
// replay probes, and the audit's pages. Why a face: the wing's other files are its internals, which
// no file outside src/audit/ imports (.dependency-cruiser.cjs FACES, rule face-audit). The wing's
// pure maths (edge statistics and simulation, fairness schemes) sit on a lower floor, below report,
// sim and live, so they have their own door at that floor: src/audit/maths.ts. One door per name:
// this face does not repeat the maths. The light face, src/audit/options.ts, holds the bets'
// bounds. The money, pot, settlement and replay probes have their own door, src/audit/probes.ts: `afp audit
// money` runs them alone, and through this face it loaded the edge audit and its pages too.

// The live house-edge audit: plan, run, findings, tables
export { auditEdgeLive, type EdgeAuditOptions, type EdgeAuditResult } from './audit/live/edge-audit.ts';
export { LIVE_BETS_MAX, singleBetShare } from './audit/live/edge-calls.ts';
export { type PlannedVariant, planVariants } from './audit/live/edge-plan.ts';
export { auditEta } from './audit/live/edge-eta.ts';
export { recordEdgeFindings } from './audit/live/edge-findings.ts';
export { liveVerdictText, statedText } from './audit/live/edge-cells.ts';
export {
  edgeReportTable,
  renderEdgeAuditCsv,
  renderEdgeAuditJson,
  renderEdgeAuditTable,
} from './audit/live/edge-table.ts';

// The live fairness audit
export { auditFairnessLive, type FairnessAuditOptions, type FairnessAuditResult } from './audit/live/fairness-audit.ts';
export { renderFairnessJson, renderFairnessTable } from './audit/live/fairness-table.ts';

// What the documents list and restate
export { type ListedWords, readListedWords } from './audit/live/listed-words.ts';
export { recordListedFindings } from './audit/live/listed-findings.ts';
export { recordRestatedRules } from './audit/live/restated-findings.ts';

// The house-edge pages (afp audit house-edge's files)
export { renderEdgeReportHtml, writeEdgeAuditFiles } from './audit/report/edge-audit-files.ts';
export { renderEdgeCsv, renderEdgeJson, renderEdgeTable } from './audit/report/edge-table.ts';
