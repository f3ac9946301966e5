// The archetype table names each archetype's module (AGENT_MODULES), so the k6 export bundles only
// the archetypes a scenario uses: every name maps to a module under agents/ that exports exactly
// the definition AGENTS holds under that name.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { AGENT_MODULES, AGENTS } from '../../agents/index.ts';

const AGENTS_DIR = join(import.meta.dirname, '..', '..', 'agents');

describe('AGENT_MODULES', () => {
  test('names, for every archetype, the module that exports its definition', async () => {
    expect(Object.keys(AGENT_MODULES).sort()).toEqual(Object.keys(AGENTS).sort());
    for (const [name, module] of Object.entries(AGENT_MODULES)) {
      const exported = Object.values(
        (await import(/* @vite-ignore */ pathToFileURL(join(AGENTS_DIR, `${module}.ts`)).href)) as Record<
          string,
          unknown
        >,
      );
      expect(exported, name).toContain(AGENTS[name]);
    }
  });
});
