/**
 * `afp audit house-edge --target URL [--key KEY]`: the live house-edge audit
 * (src/audit/live-house-edge.ts) as a command.
 *
 * Flow: find the target's mounts; open the audit account (live-account.ts: a fresh agent funded
 * through afp serve's admin deposit, or the --key account); place `--bets` minimum bets over the
 * core games' default variants, verify every proof, run the SPRT; print the edge table, the SPRT
 * table and the findings (or --json / --csv), and write edges.csv, edges.json, sprt.csv,
 * findings.csv and report.html to --out.
 * Exit codes, first that applies: 3 a bet did not recompute, a (seed, nonce) pair was drawn
 * twice, or the model check failed beyond chance; 1 the target could not be audited (does not
 * answer, refused a step or a bet); 4 --max-seconds ended the run early; 2 invalid flags (a
 * foreign target without --key); 0 otherwise. SPRT and verdicts against the advertised edge are
 * findings about the documents, never an exit code.
 */
import { renderEdgeReportHtml, writeEdgeAuditFiles } from '../audit/edge-audit-files.ts';
import { renderEdgeCsv } from '../audit/edge-table.ts';
import { renderFindingsCsv } from '../audit/fairness-table.ts';
import { openAuditAccount } from '../audit/live-account.ts';
import { renderLiveEdgeJson, renderLiveEdgeText, renderSprtCsv, type LiveEdgeReport } from '../audit/live-edge-table.ts';
import { auditHouseEdgeLive, LIVE_BETS, liveFundMicro } from '../audit/live-house-edge.ts';
import { connectTarget, Deadline, type LiveTarget } from '../audit/live-target.ts';
import { SYSTEM_LIVE_CLOCK, type AuditIo } from './audit-io.ts';
import { houseEdgeReproduce, modelCheckLines, type HouseEdgeFlags } from './audit-house-edge.ts';
import { EXIT } from './exit-codes.ts';

const KIND_EXIT = { invalid: EXIT.invalidInput, trouble: EXIT.crash, deadline: EXIT.liveness } as const;

export async function runHouseEdgeLive(flags: HouseEdgeFlags, io: AuditIo): Promise<number> {
  const clock = SYSTEM_LIVE_CLOCK;
  let target: LiveTarget;
  try {
    target = await connectTarget(flags.target as string);
  } catch (error) {
    io.err(`afp audit house-edge: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.crash;
  }
  const deadline = new Deadline(clock, flags.maxSeconds);
  const bets = LIVE_BETS.filter((bet) => flags.gameIds.includes(bet.game));
  const account = await openAuditAccount({ target, key: flags.key ?? undefined, fundMicro: liveFundMicro(flags.bets, bets), clock, deadline });
  if (!account.ok) {
    io.err(`afp audit house-edge: ${account.message}\n`);
    return KIND_EXIT[account.kind];
  }
  const result = await auditHouseEdgeLive({ client: account.value.client, bets, betCount: flags.bets, seed: flags.seed, concurrency: flags.concurrency, clock, deadline });
  const report: LiveEdgeReport = { target: target.url, agentId: account.value.agentId, account: account.value.note, result };
  const subtitle = `live: ${target.url} · seed ${flags.seed} · ${result.checked} bets verified`;
  const files = writeEdgeAuditFiles(flags.out, {
    'edges.csv': renderEdgeCsv(result.simulation),
    'edges.json': renderLiveEdgeJson(report),
    'sprt.csv': renderSprtCsv(result.sprt),
    'findings.csv': renderFindingsCsv(result.mismatches, result.nonces),
    'report.html': renderEdgeReportHtml(result.simulation.rows, 'afp audit house-edge --target', subtitle),
  });
  io.out(flags.format === 'json' ? renderLiveEdgeJson(report) : flags.format === 'csv' ? renderEdgeCsv(result.simulation) : renderLiveEdgeText(report));
  const check = modelCheckLines(result.simulation.rows);
  const proofsFailed = result.mismatchCount > 0 || result.nonces.duplicateCount > 0;
  const lines = [...check.lines];
  if (proofsFailed) lines.push(`FAILED: proofs: ${result.mismatchCount} bets do not recompute, ${result.nonces.duplicateCount} (seed, nonce) pairs drawn twice`);
  lines.push(`files: ${files.join(', ')}`);
  const code = proofsFailed || check.failed ? EXIT.checkFailed : result.stoppedBy === 'refused' ? EXIT.crash : result.stoppedBy === 'deadline' ? EXIT.liveness : EXIT.ok;
  if (code !== EXIT.ok) lines.push(`seed: ${flags.seed}`, `reproduce: ${houseEdgeReproduce(flags)}`);
  (flags.format === 'table' ? io.out : io.err)(`${lines.join('\n')}\n`);
  return code;
}
