/**
 * The table `afp target probe` prints: per URL, every endpoint sent, its status and the evidence it
 * gave, then what the URL was taken for; then the services chosen and the notes. Plain text with
 * fixed columns; byte-stable (the same outcome prints the same bytes).
 */
import type { UrlVerdict } from './classify.ts';
import type { ProbeOutcome } from './probe-target.ts';

function pad(text: string, width: number): string {
  return text.length >= width ? `${text} ` : text + ' '.repeat(width - text.length);
}

function verdictLine(verdict: UrlVerdict): string {
  if (!verdict.answered) return '  → no answer';
  const family = verdict.family === null ? 'undecided' : verdict.family;
  const services = verdict.services.map((found) => `${found.service} ${found.dialect}`).join(', ');
  return `  → ${services === '' ? 'no service recognized' : services}; dialect family ${family} (documents ${verdict.familyVotes.documents} : deployed ${verdict.familyVotes.deployed})`;
}

export function renderProbeTable(outcome: ProbeOutcome): string {
  const lines: string[] = [];
  for (const verdict of outcome.verdicts) {
    const width = Math.max(...verdict.endpoints.map((endpoint) => endpoint.path.length + 4), 'endpoint'.length) + 2;
    lines.push(verdict.url, `  ${pad('endpoint', width)}${pad('status', 8)}evidence`);
    for (const endpoint of verdict.endpoints) {
      lines.push(
        `  ${pad(`GET ${endpoint.path}`, width)}${pad(endpoint.status === null ? '-' : String(endpoint.status), 8)}${endpoint.evidence.join('; ')}`.trimEnd(),
      );
    }
    lines.push(verdictLine(verdict), '');
  }
  lines.push(outcome.chosen.length === 0 ? 'target: no service recognized' : 'target:');
  for (const found of outcome.chosen) lines.push(`  ${found.service}: ${found.url} (${found.dialect})`);
  for (const note of outcome.notes) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
}
