/**
 * The YAML text of a target file written by `afp target probe`: the fields of target-schema.ts in
 * a fixed order, each with a one-line comment saying what it is and why the probe chose it, so a
 * user can check it before using it. Byte-stable: the same outcome gives the same bytes (no time,
 * no host facts); strings that could need quoting are written as JSON strings (valid YAML).
 */
import { DEPLOYED_LIMITS } from '../dialects/deployed/limits.ts';
import type { OperationName } from '../operations.ts';
import type { TargetFile } from '../target-schema.ts';
import type { ChosenService } from './probe-target.ts';

function votesText(found: ChosenService): string {
  const entries = Object.entries(found.votes).filter(([, count]) => count !== undefined && count > 0);
  entries.sort(([a, x], [b, y]) => (y ?? 0) - (x ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  return entries.map(([dialect, count]) => `${dialect} ${count}`).join(', ');
}

const FUNDING_COMMENT: Readonly<Record<TargetFile['funding']['method'], string>> = {
  'admin-deposit': "afp serve's simulated chain deposit (POST /_afp/casino/deposit)",
  faucet: "a fresh agent claims the target's faucet (1.00 USDC once per agent and per IP per 24 h on a deployment)",
  keys: 'pre-funded agents: set the variable to their API keys, comma-separated (keys never go in this file)',
  command: 'your command funds each fresh agent',
};

export function renderTargetText(
  file: TargetFile,
  options: { readonly urls: readonly string[]; readonly chosen: readonly ChosenService[] },
): string {
  const lines = [
    `# Written by: afp target probe ${options.urls.join(' ')}`,
    '# What the probe recognized, with the evidence each service had (pieces per dialect). Check it,',
    '# then pass --target FILE. Every field is explained in targets/afp-serve.yaml and',
    '# targets/deployed.yaml; editor schema: schemas/target.schema.json.',
    `name: ${file.name}`,
    'services:',
  ];
  for (const found of options.chosen)
    lines.push(
      `  ${found.service}: { url: ${JSON.stringify(found.url)}, dialect: ${found.dialect} }  # evidence: ${votesText(found)}`,
    );
  lines.push(
    file.register === 'none'
      ? 'register: none  # no casino found: no registration'
      : `register: { service: ${file.register.service} }  # a fresh agent registers on the casino`,
  );
  const funding = file.funding;
  const fundingText =
    funding.method === 'keys'
      ? `{ method: keys, keys_env: ${funding.keys_env ?? ''} }`
      : `{ method: ${funding.method} }`;
  lines.push(`funding: ${fundingText}  # ${FUNDING_COMMENT[funding.method]}`);
  const limits = Object.entries(file.limits ?? {}) as [OperationName, { per_minute: number } | undefined][];
  if (limits.length === 0) lines.push('limits: {}  # no pace known to keep');
  else {
    lines.push("limits:  # the deployment's limits (spec/DEPLOYED.md), per afp operation");
    for (const [op, limit] of limits)
      if (limit !== undefined)
        lines.push(`  ${op}: { per_minute: ${limit.per_minute} }  # ${DEPLOYED_LIMITS[op]?.why ?? ''}`);
  }
  if (file.fairness !== undefined)
    lines.push(`fairness: ${file.fairness}  # how the casino's bets are verified (its dialect's scheme)`);
  if (file.admin_url !== undefined)
    lines.push(`admin_url: ${JSON.stringify(file.admin_url)}  # an afp serve: its /_afp admin doors`);
  return `${lines.join('\n')}\n`;
}
