// The README's endpoint list is generated from the route table and must be fresh; its two
// set-up commands are the ones the project promises.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointListMarkdown, spliceEndpoints } from '../../src/http/endpoint-list.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('README', () => {
  it('lists every endpoint of the route table (run `node scripts/gen-docs.ts` after changing routes)', () => {
    expect(spliceEndpoints(readme, endpointListMarkdown(ALL_ROUTES))).toBe(readme);
    for (const route of ALL_ROUTES) expect(readme).toContain(`\`${route.id}\``);
  });

  it('states the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
  });
});
