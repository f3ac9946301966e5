/**
 * The live fairness audit's result as text and JSON (what `afp audit fairness` prints, and
 * `fairness.json` in --out): per game, the bets audited, verified against a revealed seed, whose
 * outcome followed the target's rule, whose payout was right, and whose outcome or payout could
 * not be checked. Pure and byte-stable: games in name order, fixed columns, no time.
 */
import type { FairnessAuditResult, GameTally } from './fairness-audit.ts';
import { jsonDocument } from '../../report/kit/summary.ts';

export interface FairnessHeader {
  readonly target: string;
  readonly source: string;
  readonly scheme: string;
  readonly agentId: string;
}

const COLUMNS = ['game', 'audited', 'verified', 'rule ok', 'paid ok', 'not checked', 'not revealed'] as const;

function cells(tally: GameTally): string[] {
  return [
    tally.game,
    String(tally.audited),
    String(tally.verified),
    String(tally.followedRule),
    String(tally.paidRight),
    String(tally.notChecked),
    String(tally.notRevealed),
  ];
}

export function renderFairnessTable(result: FairnessAuditResult): string {
  const rows = [[...COLUMNS], ...result.games.map(cells)];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => (row[column] as string).length)));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] as number) : cell.padStart(widths[column] as number),
      )
      .join('  ')
      .trimEnd();
  return `${rows.map(line).join('\n')}\n`;
}

export function fairnessJson(result: FairnessAuditResult, header: FairnessHeader): Record<string, unknown> {
  return {
    target: header.target,
    source: header.source,
    scheme: header.scheme,
    agent_id: header.agentId,
    rotation: result.rotation,
    history_total: result.historyTotal,
    listed: result.listed,
    audited: result.audited,
    verified: result.verified,
    stopped_by: result.stoppedBy,
    troubles: [...result.troubles],
    games: result.games.map((tally) => ({
      game: tally.game,
      audited: tally.audited,
      verified: tally.verified,
      followed_rule: tally.followedRule,
      paid_right: tally.paidRight,
      not_checked: tally.notChecked,
      not_revealed: tally.notRevealed,
    })),
  };
}

export function renderFairnessJson(result: FairnessAuditResult, header: FairnessHeader): string {
  return jsonDocument(fairnessJson(result, header));
}
