/**
 * The YAML text of a target file written by `afp target probe`: the fields of target-schema.ts in
 * a fixed order, each with a one-line comment saying what it is and why the probe chose it, so a
 * user can check it before using it. Byte-stable: the same outcome gives the same bytes (no time,
 * no host facts); strings that could need quoting are written as JSON strings (valid YAML). Each
 * limit says whether the target announced it (and the headers that did) or it is afp's copy of
 * DEPLOYED.md, which the target did not confirm.
 */
import { announcedText } from '../announced-limit.ts';
import { DEPLOYED_LIMITS } from '../dialects/deployed/limits.ts';
import type { OperationName } from '../operations.ts';
import type { TargetFile } from '../target-schema.ts';
import type { ChosenService, LimitAnnouncement, LimitSource, LimitSources } from './probe-target.ts';

/**
 * The votes, most first; where a dialect of the other family has as many as the one chosen, why it
 * was not chosen (the URL's family decides first: classify.ts), so the line never seems to contradict the choice.
 */
function votesText(found: ChosenService): string {
  const entries = Object.entries(found.votes).filter(([, count]) => count !== undefined && count > 0);
  entries.sort(([a, x], [b, y]) => (y ?? 0) - (x ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  const text = entries.map(([dialect, count]) => `${dialect} ${count}`).join(', ');
  const family = found.dialect === 'deployed' ? 'deployed' : 'documents';
  const chosenCount = found.votes[found.dialect] ?? 0;
  const outside = entries
    .filter(
      ([dialect, count]) =>
        (dialect === 'deployed' ? 'deployed' : 'documents') !== family && (count ?? 0) >= chosenCount,
    )
    .map(([dialect]) => dialect);
  if (outside.length === 0) return text;
  const { documents, deployed } = found.familyVotes;
  return `${text} (${outside.join(', ')} ruled out: the URL answers in the ${family} family, documents ${documents} : deployed ${deployed})`;
}

/** Where a service's URL came from, when the user did not give it. */
function originText(found: ChosenService): string {
  if (found.announced === null) return '';
  return found.announced.direct
    ? `; announced by the afp serve at ${found.announced.by} (its /_afp/mounts)`
    : `; from the serve's announced mounts (${found.announced.by}/_afp/mounts), around the URL given: not through it`;
}

const FUNDING_COMMENT: Readonly<Record<TargetFile['funding']['method'], string>> = {
  'admin-deposit':
    "afp serve's simulated chain deposit (POST /_afp/casino/deposit, solana): credited at once on a manual clock, about a minute later on a wall clock (afp waits for it)",
  faucet: "a fresh agent claims the target's faucet (1.00 USDC once per agent and per IP per 24 h on a deployment)",
  keys: 'pre-funded agents: set the variable to their API keys, comma-separated (keys never go in this file)',
  command: 'your command funds each fresh agent',
};

/** "X-RateLimit-Limit: 5; RateLimit-Policy: 5;w=30 on GET /x". */
function announcementText(announcement: LimitAnnouncement): string {
  return `${announcement.announced.headers} on GET ${announcement.path}`;
}

/** A limit line's comment: where its figure comes from. */
function limitComment(op: OperationName, perMinute: number, source: LimitSource | undefined): string {
  if (source?.kind === 'announced') {
    const { announced } = source;
    const converted =
      announced.windowSeconds === 60
        ? ''
        : `; ${announcedText(announced)} written as ${perMinute}/min, evenly spaced: never more than ${announced.limit} in ${announced.windowSeconds} s`;
    return `announced by the target: ${announcementText(source)}${converted}`;
  }
  const documented = `afp's copy of DEPLOYED.md (the target announced no limit for it to the probe): ${DEPLOYED_LIMITS[op]?.why ?? ''}`;
  if (source?.unusable === null || source?.unusable === undefined) return documented;
  return `${documented}; the target announced ${announcedText(source.unusable.announced)} (${announcementText(source.unusable)}), which a per-minute pace cannot express`;
}

export function renderTargetText(
  file: TargetFile,
  options: {
    readonly urls: readonly string[];
    readonly chosen: readonly ChosenService[];
    /** Where each limit came from; absent: every limit is afp's copy of DEPLOYED.md. */
    readonly limitSources?: LimitSources;
  },
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
      `  ${found.service}: { url: ${JSON.stringify(found.url)}, dialect: ${found.dialect} }  # evidence: ${votesText(found)}${originText(found)}`,
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
  const limits = Object.entries(file.limits ?? {}) as [
    OperationName,
    { per_minute: number; bucket?: string } | undefined,
  ][];
  if (limits.length === 0) lines.push('limits: {}  # no pace known to keep');
  else {
    lines.push(
      "limits:  # per afp operation: what the target announced on the probe's answers, else the deployment's documented limits (spec/DEPLOYED.md)",
    );
    for (const [op, limit] of limits)
      if (limit !== undefined)
        lines.push(
          `  ${op}: { per_minute: ${limit.per_minute}${limit.bucket === undefined ? '' : `, bucket: ${limit.bucket}`} }  # ${limitComment(op, limit.per_minute, options.limitSources?.[op])}`,
        );
  }
  if (file.fairness !== undefined)
    lines.push(`fairness: ${file.fairness}  # how the casino's bets are verified (its dialect's scheme)`);
  if (file.admin_url !== undefined)
    lines.push(`admin_url: ${JSON.stringify(file.admin_url)}  # an afp serve: its /_afp admin doors`);
  return `${lines.join('\n')}\n`;
}
