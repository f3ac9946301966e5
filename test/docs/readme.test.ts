// The README's generated parts must be fresh: the endpoint list (from the route table), each
// command's usage block and the exit-code table (from the CLI's definitions); its two set-up
// commands are the ones the project promises.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.ts';
import { spliceUsage } from '../../src/cli/readme-usage.ts';
import { endpointListMarkdown, spliceEndpoints } from '../../src/http/endpoint-list.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('README', () => {
  it('lists every endpoint of the route table (run `node scripts/gen-docs.ts` after changing routes)', () => {
    expect(spliceEndpoints(readme, endpointListMarkdown(ALL_ROUTES))).toBe(readme);
    for (const route of ALL_ROUTES) expect(readme).toContain(`\`${route.id}\``);
  });

  it('holds every command\'s usage block and the exit codes as the definitions give them (run `node scripts/gen-docs.ts` after changing src/cli/commands.ts)', () => {
    const usage = spliceUsage(readme, COMMANDS.map((row) => row.definition));
    expect(usage.missing).toEqual([]);
    expect(usage.text).toBe(readme);
  });

  it('a stale usage block is caught', () => {
    const stale = readme.replace('afp run FILE [--seed N]', 'afp run FILE [--sed N]');
    expect(stale).not.toBe(readme);
    expect(spliceUsage(stale, COMMANDS.map((row) => row.definition)).text).toBe(readme);
  });

  it('states the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
  });
});
