// The archetype table names each archetype's module (AGENT_MODULES), so the k6 export bundles only
// the archetypes a scenario uses: every name maps to a module under agents/ that exports exactly
// the definition AGENTS holds under that name. The lazy table (archetype-loaders.ts), which a
// command loads its scenario's archetypes through, holds the same names, and each row loads that
// very definition.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ARCHETYPE_LOADERS, ARCHETYPE_NAMES, loadArchetypes } from '../../agents/archetype-loaders.ts';
import { AGENT_MODULES, AGENT_NAMES, AGENTS } from '../../agents/index.ts';

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

describe('ARCHETYPE_LOADERS', () => {
  test('has every archetype of AGENTS, in its order, and each row loads the definition AGENTS holds', async () => {
    expect(Object.keys(ARCHETYPE_LOADERS)).toEqual(Object.keys(AGENTS));
    expect(ARCHETYPE_NAMES).toEqual(AGENT_NAMES);
    for (const [name, loader] of Object.entries(ARCHETYPE_LOADERS)) {
      expect(await loader.load(), name).toBe(AGENTS[name]);
    }
  });

  test('loadArchetypes gives the named archetypes once each, in the order asked, and leaves out unknown names', async () => {
    const loaded = await loadArchetypes(['escrow-buyer', 'no-such-agent', 'faucet-farmer', 'escrow-buyer']);
    expect(Object.keys(loaded)).toEqual(['escrow-buyer', 'faucet-farmer']);
    expect(loaded['escrow-buyer']).toBe(AGENTS['escrow-buyer']);
    expect(loaded['faucet-farmer']).toBe(AGENTS['faucet-farmer']);
    expect(await loadArchetypes([])).toEqual({});
  });
});
