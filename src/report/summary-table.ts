/**
 * The fixed-width text table `afp run` prints at the end: agents, requests and errors per
 * archetype; checks and violations per invariant; the run's totals. Pure and byte-stable:
 * plain ASCII, no colours, no terminal-width detection, archetypes sorted by name, invariants
 * in the record's order. Text columns are left-aligned, numbers right-aligned; every column
 * holds one kind of figure (counts apart from USDC amounts, which all have 6 decimals), and the
 * outcome, a word, is its own line. The money rows down to `total held` add up to it (every
 * account holding money is in a row: src/sim/money-holders.ts); `ledger sum` is the ledger's own
 * check, zero when money is conserved.
 */
import { usdcColumnText } from './column-format.ts';
import type { AgentRow, RunRecord } from './run-record.ts';

type Align = 'left' | 'right';

/** Renders rows under a header, each column as wide as its widest cell, two spaces apart. */
export function textTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[],
): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? cell.length;
        return align[column] === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

interface ArchetypeTotals {
  agents: number;
  requests: number;
  errors: number;
  rateLimited: number;
}

function byArchetype(agents: readonly AgentRow[]): Map<string, ArchetypeTotals> {
  const totals = new Map<string, ArchetypeTotals>();
  for (const agent of agents) {
    const entry = totals.get(agent.archetype) ?? { agents: 0, requests: 0, errors: 0, rateLimited: 0 };
    entry.agents += 1;
    entry.requests += agent.requests;
    entry.errors += agent.errors;
    entry.rateLimited += agent.rateLimited;
    totals.set(agent.archetype, entry);
  }
  return totals;
}

function agentLines(record: RunRecord): string[] {
  const totals = byArchetype(record.agents);
  const names = [...totals.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const all: ArchetypeTotals = { agents: 0, requests: 0, errors: 0, rateLimited: 0 };
  const rows = names.map((name) => {
    const entry = totals.get(name) as ArchetypeTotals;
    all.agents += entry.agents;
    all.requests += entry.requests;
    all.errors += entry.errors;
    all.rateLimited += entry.rateLimited;
    return [name, String(entry.agents), String(entry.requests), String(entry.errors), String(entry.rateLimited)];
  });
  rows.push(['all', String(all.agents), String(all.requests), String(all.errors), String(all.rateLimited)]);
  return textTable(['archetype', 'agents', 'requests', 'errors', 'rate_limited'], rows, [
    'left',
    'right',
    'right',
    'right',
    'right',
  ]);
}

function invariantLines(record: RunRecord): string[] {
  const rows = record.invariants.map((result) => [
    result.name,
    String(result.checks),
    String(result.violations),
    result.violations > 0 ? 'FAILED' : 'ok',
  ]);
  return textTable(['invariant', 'checks', 'violations', 'result'], rows, ['left', 'right', 'right', 'left']);
}

export function summaryTable(record: RunRecord): string {
  const totals = record.totals;
  const countRows = [
    ['requests', String(totals.requests)],
    ['escrows', String(totals.escrows)],
    ['events', String(record.events.count)],
  ];
  const moneyRows = [
    ['agent balances', usdcColumnText(totals.agentBalancesMicro)],
    ['fee income', usdcColumnText(totals.feeIncomeMicro)],
    ['faucet pool', usdcColumnText(totals.faucetPoolMicro)],
    ...(totals.holders ?? []).map((holder) => [holder.name, usdcColumnText(holder.amountMicro)]),
    ...(totals.totalHeldMicro === undefined ? [] : [['total held', usdcColumnText(totals.totalHeldMicro)]]),
    ['ledger sum', usdcColumnText(totals.ledgerSumMicro)],
  ];
  return (
    [
      ...agentLines(record),
      '',
      ...invariantLines(record),
      '',
      ...textTable(['total', 'count'], countRows, ['left', 'right']),
      '',
      ...textTable(['money', 'usdc'], moneyRows, ['left', 'right']),
      '',
      `outcome: ${record.outcome}`,
    ].join('\n') + '\n'
  );
}
