// The layer check (`npm run layers`, .dependency-cruiser.cjs) bites: an import from an inner
// layer to an outer one, a folder outside every layer and a cycle of value imports each fail it
// with a non-zero exit, in a temp copy of the config over a few files written for the purpose (so
// a crash cannot leave a bad import in the tree); so does a cycle closed by a type-only import, and
// an import up from src/audit/edge/ (a layer inside a later one's folder) to the rest of src/audit/.
// The bans on top of the order each fail on a planted import too: the harnesses sim, load and
// export importing each other (export -> load aside), and an archetype of agents/ importing above
// the agent floor (the property archetype's import of check aside). And each folder face: an import
// from outside a faced folder into its internals fails, the same import through its face passes,
// and a file inside the folder importing its own face fails.
// And the config's layers are docs/layout.md's list, in the same order.
// Why in-process: dependency-cruiser's own API (the config read as the CLI reads it, the `err`
// reporter the CLI prints, its exit code) cruises each small tree in milliseconds, where a child
// per tree paid Node's start and the load of dependency-cruiser and TypeScript seven times. The
// real tree is not cruised here: `npm test` runs `npm run layers` over it as one of its held steps.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise as cruiseApi } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const CONFIG = '.dependency-cruiser.cjs';

interface Cruise {
  readonly status: number;
  readonly output: string;
}

/** What `depcruise src agents --config .dependency-cruiser.cjs --output-type err` prints and exits with, run in `cwd`. */
async function cruise(cwd: string): Promise<Cruise> {
  const options = await extractDepcruiseOptions(join(cwd, CONFIG));
  const tsConfig = extractTSConfig(join(cwd, 'tsconfig.json'));
  const result = await cruiseApi(['src', 'agents'], { ...options, baseDir: cwd, outputType: 'err' }, {}, { tsConfig });
  return { status: result.exitCode, output: String(result.output) };
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temp copy of the config and tsconfig, with `files` (path → text) and an agents/ file of its own. */
function tree(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'afp-layers-'));
  made.push(dir);
  copyFileSync(join(root, CONFIG), join(dir, CONFIG));
  copyFileSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  const all = { 'agents/index.ts': 'export const AGENTS = {};\n', ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the layer check', () => {
  test('passes on files that import only inward', async () => {
    const dir = tree({
      'src/core/money.ts': 'export const ONE = 1n;\n',
      'src/cli/main.ts': "import { ONE } from '../core/money.ts';\nexport const two = ONE + ONE;\n",
    });
    const run = await cruise(dir);
    expect(run.output).toContain('no dependency violations found');
    expect(run.status).toBe(0);
  });

  test('fails on an import from core up to the CLI', async () => {
    const dir = tree({
      'src/cli/exit.ts': 'export const EXIT_OK = 0;\n',
      'src/core/upward.ts': "import { EXIT_OK } from '../cli/exit.ts';\nexport const ok = EXIT_OK;\n",
    });
    const run = await cruise(dir);
    expect(run.output).toContain('layer-core: src/core/upward.ts → src/cli/exit.ts');
    expect(run.status).not.toBe(0);
  });

  test('fails on a type-only import from sim up to agents/', async () => {
    const dir = tree({
      'agents/kit.ts': 'export interface Kit {\n  readonly name: string;\n}\n',
      'src/sim/runner.ts': "import type { Kit } from '../../agents/kit.ts';\nexport const kits: Kit[] = [];\n",
    });
    const run = await cruise(dir);
    expect(run.output).toContain('layer-sim: src/sim/runner.ts → agents/kit.ts');
    expect(run.status).not.toBe(0);
  });

  test("places the audit wing's maths low and the rest of src/audit/ after live", async () => {
    const low = await cruise(
      tree({
        'src/audit/edge/sprt.ts': 'export const ALPHA = 0.01;\n',
        'src/audit/edge/bound.ts': "import { ALPHA } from './sprt.ts';\nexport const beta = ALPHA * 2;\n",
        'src/audit/maths.ts': "export { ALPHA } from './edge/sprt.ts';\n",
        'src/report/edges.ts': "import { ALPHA } from '../audit/maths.ts';\nexport const shown = `${ALPHA}`;\n",
        'src/audit/live/run.ts': "import { shown } from '../../report/edges.ts';\nexport const line = shown;\n",
      }),
    );
    expect(low.output).toContain('no dependency violations found');
    expect(low.status).toBe(0);
    const up = await cruise(
      tree({
        'src/audit/live/run.ts': 'export const RUNS = 1;\n',
        'src/report/edges.ts': "import { RUNS } from '../audit/live/run.ts';\nexport const runs = RUNS;\n",
        'src/audit/edge/sprt.ts': "import { RUNS } from '../live/run.ts';\nexport const alpha = RUNS / 100;\n",
      }),
    );
    expect(up.output).toContain('layer-report: src/report/edges.ts → src/audit/live/run.ts');
    expect(up.output).toContain('layer-audit-maths: src/audit/edge/sprt.ts → src/audit/live/run.ts');
    expect(up.status).not.toBe(0);
  });

  test('fails on a folder of src/ that is in no layer', async () => {
    const dir = tree({
      'src/core/money.ts': 'export const ONE = 1n;\n',
      'src/newcomer/thing.ts': "import { ONE } from '../core/money.ts';\nexport const thing = ONE;\n",
    });
    const run = await cruise(dir);
    expect(run.output).toContain('not-in-a-layer: src/newcomer/thing.ts');
    expect(run.status).not.toBe(0);
  });

  test('fails on a cycle of value imports inside one layer, and on one closed by a type-only import', async () => {
    const value = await cruise(
      tree({
        'src/sim/a.ts': "import { b } from './b.ts';\nexport const a = (): number => b() + 1;\n",
        'src/sim/b.ts': "import { a } from './a.ts';\nexport const b = (): number => (a.length > 0 ? 1 : 0);\n",
      }),
    );
    expect(value.output).toContain('no-value-cycle: src/sim/a.ts');
    expect(value.status).not.toBe(0);
    const typed = await cruise(
      tree({
        'src/sim/a.ts':
          "import { b } from './b.ts';\nexport interface A {\n  readonly n: number;\n}\nexport const a = b;\n",
        'src/sim/b.ts': "import type { A } from './a.ts';\nexport const b = (x: A): number => x.n;\n",
      }),
    );
    expect(typed.output).not.toContain('no-value-cycle');
    expect(typed.output).toMatch(/error type-cycle: src\/sim\/[ab]\.ts/);
    expect(typed.status).not.toBe(0);
  });
});

/** A tree of one planted import: `from` (a path) imports `./ONE` of `to` (a path holding `export const ONE = 1;`). */
function planted(from: string, to: string): string {
  const depth = from.split('/').length - 1;
  const target = `${'../'.repeat(depth)}${to}`;
  return tree({
    [to]: 'export const ONE = 1;\n',
    [from]: `import { ONE } from '${target}';\nexport const two = ONE + 1;\n`,
  });
}

describe('the sibling harnesses and the agent floor (issue 72 part 1)', () => {
  test.each([
    ['sim', 'src/sim/runner.ts', 'src/load/load-run.ts'],
    ['load', 'src/load/load-run.ts', 'src/sim/runner.ts'],
    ['load', 'src/load/load-run.ts', 'src/export/k6/k6-script.ts'],
    ['export', 'src/export/k6/k6-script.ts', 'src/sim/runner.ts'],
  ])('sibling-%s fails on %s importing %s', async (name, from, to) => {
    const run = await cruise(planted(from, to));
    expect(run.output).toContain(`sibling-${name}: ${from} → ${to}`);
    expect(run.status).not.toBe(0);
  });

  test('export may import load, and every harness the agent and scenario floors', async () => {
    const dir = tree({
      'src/scenario/scenario.ts': 'export const SCENARIO = 1;\n',
      'src/agent/agent.ts': "import { SCENARIO } from '../scenario/scenario.ts';\nexport const AGENT = SCENARIO;\n",
      'src/load/load-run.ts': "import { AGENT } from '../agent/agent.ts';\nexport const LOAD = AGENT;\n",
      'src/sim/runner.ts': "import { AGENT } from '../agent/agent.ts';\nexport const SIM = AGENT;\n",
      'src/load.ts': "export { LOAD } from './load/load-run.ts';\n",
      'src/export/k6/k6-script.ts':
        "import { LOAD } from '../../load.ts';\nimport { SCENARIO } from '../../scenario/scenario.ts';\nexport const K6 = LOAD + SCENARIO;\n",
      'agents/casino/bettor.ts':
        "import { AGENT } from '../../src/agent/agent.ts';\nimport { SCENARIO } from '../../src/scenario/scenario.ts';\nexport const BET = AGENT + SCENARIO;\n",
    });
    const run = await cruise(dir);
    expect(run.output).toContain('no dependency violations found');
    expect(run.status).toBe(0);
  });

  test('the agent floor sits below the harnesses: agent importing sim fails layer-agent', async () => {
    const run = await cruise(planted('src/agent/run-agent.ts', 'src/sim/simulation.ts'));
    expect(run.output).toContain('layer-agent: src/agent/run-agent.ts → src/sim/simulation.ts');
    expect(run.status).not.toBe(0);
  });

  test.each(['src/sim/runner.ts', 'src/load/load-run.ts', 'src/live/target.ts', 'src/check/check-model.ts'])(
    'agents-on-the-agent-floor fails on an archetype importing %s',
    async (to) => {
      const run = await cruise(planted('agents/casino/bettor.ts', to));
      expect(run.output).toContain(`agents-on-the-agent-floor: agents/casino/bettor.ts → ${to}`);
      expect(run.status).not.toBe(0);
    },
  );

  test('the property archetype may import check, and nothing else above the floor', async () => {
    const allowed = await cruise(planted('agents/property/property-agent.ts', 'src/check.ts'));
    expect(allowed.output).toContain('no dependency violations found');
    const refused = await cruise(planted('agents/property/property-agent.ts', 'src/sim/runner.ts'));
    expect(refused.output).toContain(
      'agents-on-the-agent-floor-property: agents/property/property-agent.ts → src/sim/runner.ts',
    );
    expect(refused.status).not.toBe(0);
  });
});

describe('the folder faces (issue 72 part 3)', () => {
  test.each([
    ['live', 'src/cli/audit.ts', 'src/live/live-session.ts', 'src/live.ts'],
    ['sim', 'src/cli/run.ts', 'src/sim/runner.ts', 'src/sim.ts'],
    ['check', 'src/cli/check.ts', 'src/check/run-check.ts', 'src/check.ts'],
    ['load', 'src/export/k6/k6-script.ts', 'src/load/executors.ts', 'src/load.ts'],
    ['audit', 'src/cli/audit.ts', 'src/audit/live/edge-audit.ts', 'src/audit.ts'],
    ['audit', 'src/live/afp-mounts.ts', 'src/audit/edge/edge-statistics.ts', 'src/audit/maths.ts'],
    ['probe', 'src/cli/target.ts', 'src/live/probe/probe-input.ts', 'src/live/probe.ts'],
    // The light faces: a command's flags read through options.ts, never from the file behind it.
    ['load', 'src/cli/load-url.ts', 'src/load/shard.ts', 'src/load/options.ts'],
    ['check', 'src/cli/check.ts', 'src/check/check-options.ts', 'src/check/options.ts'],
    ['live', 'src/cli/check.ts', 'src/live/resolve-target.ts', 'src/live/options.ts'],
    ['audit', 'src/live/afp-mounts.ts', 'src/audit/fairness/scheme.ts', 'src/audit/options.ts'],
  ])('face-%s fails on %s importing %s, and passes through %s', async (name, from, to, face) => {
    const inside = await cruise(planted(from, to));
    expect(inside.output).toContain(`face-${name}: ${from} → ${to}`);
    expect(inside.status).not.toBe(0);
    const depth = from.split('/').length - 1;
    const through = await cruise(
      tree({
        [to]: 'export const ONE = 1;\n',
        [face]: `export { ONE } from './${to.slice(face.lastIndexOf('/') + 1)}';\n`,
        [from]: `import { ONE } from '${'../'.repeat(depth)}${face}';\nexport const two = ONE + 1;\n`,
      }),
    );
    expect(through.output).toContain('no dependency violations found');
    expect(through.status).toBe(0);
  });

  test.each([
    ['live', 'src/live/curl.ts', 'src/live.ts'],
    ['sim', 'src/sim/swarm.ts', 'src/sim.ts'],
    ['check', 'src/check/run-check.ts', 'src/check.ts'],
    ['load', 'src/load/load-run.ts', 'src/load.ts'],
    ['audit', 'src/audit/probes/money-probes.ts', 'src/audit.ts'],
    ['audit', 'src/audit/live/edge-audit.ts', 'src/audit/maths.ts'],
    ['probe', 'src/live/probe/probe-target.ts', 'src/live/probe.ts'],
    ['load', 'src/load/executors.ts', 'src/load/options.ts'],
    ['audit', 'src/audit/live/fairness-audit.ts', 'src/audit/options.ts'],
  ])('face-%s-inside fails on %s importing its own face %s', async (name, from, face) => {
    const run = await cruise(planted(from, face));
    expect(run.output).toContain(`face-${name}-inside: ${from} → ${face}`);
    expect(run.status).not.toBe(0);
  });

  test("an import() may name a folder's internal file (it loads that module alone, later)", async () => {
    const run = await cruise(
      tree({
        'src/load/thresholds.ts': 'export const parseThresholds = (): number => 1;\n',
        'src/cli/scenario-file.ts':
          "export async function thresholds(): Promise<number> {\n  return (await import('../load/thresholds.ts')).parseThresholds();\n}\n",
      }),
    );
    expect(run.output).toContain('no dependency violations found');
    expect(run.status).toBe(0);
  });

  test("the audit wing's upper face is above live: live importing src/audit.ts fails layer-live", async () => {
    const run = await cruise(planted('src/live/afp-mounts.ts', 'src/audit.ts'));
    expect(run.output).toContain('layer-live: src/live/afp-mounts.ts → src/audit.ts');
    expect(run.status).not.toBe(0);
  });
});

/** Splits `a|(b|c)/` at its top-level bars: `a`, `(b|c)/`. */
function splitTop(alternatives: string): string[] {
  const parts = [''];
  let depth = 0;
  for (const char of alternatives) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === '|' && depth === 0) parts.push('');
    else parts[parts.length - 1] += char;
  }
  return parts;
}

/** A layer's pattern as docs/layout.md writes it: `^src/live([.]ts$|/)` is `src/live.ts and src/live/`. */
function shownPaths(pattern: string): string {
  const plain = pattern.replace(/^\^/, '');
  const faced = /^(.*?)\((.*)\)$/.exec(plain);
  const paths =
    faced === null ? [plain] : splitTop(faced[2] ?? '').map((alternative) => `${faced[1] ?? ''}${alternative}`);
  return paths.map((path) => path.replaceAll('[.]', '.').replace(/\$$/, '')).join(' and ');
}

describe('docs/layout.md "The layers, checked"', () => {
  test("lists the config's layers, in its order", () => {
    const config = createRequire(import.meta.url)(join(root, CONFIG)) as {
      forbidden: Array<{ name: string; from: { path?: string }; to: { path?: string | string[] } }>;
    };
    const rules = config.forbidden.filter((rule) => rule.name.startsWith('layer-'));
    const outermost = rules.at(-1)?.to.path;
    const patterns = [...rules.map((rule) => rule.from.path ?? ''), ...(Array.isArray(outermost) ? outermost : [])];
    const fromConfig = patterns.map(shownPaths);
    const text = readFileSync(join(root, 'docs', 'layout.md'), 'utf8');
    const section = text.slice(text.indexOf('## The layers, checked'), text.indexOf('## The documentation'));
    const fromDocs = [...section.matchAll(/^\d+\. (`[^`]+`(?: and `[^`]+`)*)/gm)].map((match) =>
      (match[1] ?? '').replaceAll('`', ''),
    );
    expect(fromDocs.length).toBeGreaterThan(10);
    expect(fromDocs).toEqual(fromConfig);
  });
});
