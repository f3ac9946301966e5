// The door of the audit wing's probes (src/audit/probes/): the money, pot, settlement and replay
// probes that `afp audit money` runs (and the fairness audit's replay probes). Why a door of their
// own beside src/audit.ts: the money audit needs none of the edge and fairness audits nor their
// pages, and Node loads every module a face names (.dependency-cruiser.cjs FACES: the audit wing's
// doors are src/audit.ts, src/audit/maths.ts and this file; one door per name).
export { type ProbeResult, unansweredLine } from './probes/probe-context.ts';
export { runMoneyProbes } from './probes/money-probes.ts';
export { POT_PROBES, runPotProbes } from './probes/pot-probes.ts';
export { runSettlementProbes, type SettlementResult } from './probes/settlement-probes.ts';
export { leaveSettlementProbes, resumeSettlement } from './probes/settlement-resume.ts';
export { readResumeFile } from './probes/resume-file.ts';
export { type ReplayProbeResult, runReplayProbes } from './probes/replay-probes.ts';
export { timePassageOf } from './probes/time-passage.ts';
