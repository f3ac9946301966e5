// The layers of afp, checked: `npm run layers` (and `npm test`, as one of its held steps).
// Why a tool and not a convention: an upward import (core importing the CLI, sim importing the
// agent table) compiles and runs, so only a check keeps the layering true (docs/design.md "The layers, as they stand",
// docs/layout.md "The layers, checked": the list below is that section; change both together).
// LAYERS runs from the inside out: a file may import only from its own layer or one listed
// BEFORE it. The order is a total order, so two folders can never import each other. A total
// order cannot say "siblings", so two kinds of ban come on top of it: the harnesses sim, load and
// export do not import each other (SIBLINGS: only export -> load), and agents/ stands on the agent
// floor (AGENTS_FLOOR: src/agent/, src/scenario/ and below). Cycles:
// none at all. A cycle of value imports makes load order matter; a cycle closed only by a
// type-only import is two concepts leaning on each other (the usual mend: the shared type moves
// to a file of its own that both import, as check/*/…-state.ts and client/call.ts did).
// Type-only imports count for the layers (a type names a concept; it must live where its users
// may all see it). Tests, bench and scripts are not checked as importers: they may import any layer.
const LAYERS = [
  ['core', '^src/core/'],
  ['services', '^src/services/'],
  ['platform', '^src/platform/'],
  ['http', '^src/http/'],
  ['server', '^src/server/'],
  ['client', '^src/client/'],
  ['audit-maths', '^src/audit/((maths|options)[.]ts$|(edge|fairness)/)'],
  ['report', '^src/report/'],
  ['scenario', '^src/scenario/'],
  ['agent', '^src/agent/'],
  ['sim', '^src/sim([.]ts$|/)'],
  ['live', '^src/live([.]ts$|/)'],
  ['audit', '^src/audit([.]ts$|/)'],
  ['check', '^src/check([.]ts$|/)'],
  ['replay', '^src/replay/'],
  ['conformance', '^src/conformance/'],
  ['agents', '^agents/'],
  ['load', '^src/load([.]ts$|/)'],
  ['export', '^src/export/'],
  ['sweep', '^src/sweep/'],
  ['shrink', '^src/shrink/'],
  ['cli', '^src/cli/'],
  ['index', '^src/index[.]ts$'],
];

/** One rule per layer: nothing in it imports a layer listed after it. */
function layerRules() {
  return LAYERS.slice(0, -1).map(([name, path], index) => ({
    name: `layer-${name}`,
    comment: `${name} imports only ${LAYERS.slice(0, index + 1)
      .map(([inner]) => inner)
      .join(', ')} (.dependency-cruiser.cjs LAYERS)`,
    severity: 'error',
    from: { path },
    // pathNot: a folder may sit lower than the folder it is in (audit-maths inside audit); its own
    // and the inner layers' paths are never "after" it, whatever later pattern also matches them.
    to: {
      path: LAYERS.slice(index + 1).map(([, outer]) => outer),
      pathNot: LAYERS.slice(0, index + 1).map(([, inner]) => inner),
    },
  }));
}

/** The path of a layer of LAYERS, by name. */
function layerPath(name) {
  const layer = LAYERS.find(([inner]) => inner === name);
  if (layer === undefined) throw new Error(`no layer ${name} in LAYERS`);
  return layer[1];
}

/**
 * The harnesses that drive agents sit side by side on the agent and scenario floors: the simulator,
 * `afp load` and the k6 export share the agent runtime (src/agent/) and the scenario format
 * (src/scenario/), never each other. One exception: the k6 export plans its arrivals with
 * `afp load`'s executors, so export may import load (and only that way round).
 */
const SIBLINGS = [
  ['sim', ['load', 'export']],
  ['load', ['sim', 'export']],
  ['export', ['sim']],
];

function siblingRules() {
  return SIBLINGS.map(([name, banned]) => ({
    name: `sibling-${name}`,
    comment: `${name} does not import ${banned.join(' or ')}: the harnesses share src/agent/ and src/scenario/, not each other (.dependency-cruiser.cjs SIBLINGS)`,
    severity: 'error',
    from: { path: layerPath(name) },
    to: { path: banned.map(layerPath) },
  }));
}

/**
 * An archetype is written against the agent kit and the scenario format alone: agents/ imports
 * src/agent/, src/scenario/ and the layers below them, nothing above (the simulator, live, load…).
 * The one exception, a file by name: the `property` archetype runs the model-based checker
 * (src/check/) as an agent population, and check sits above live, so it cannot move below the
 * agent floor; that file may import check, and nothing else above the floor.
 */
const AGENTS_FLOOR = 'agent';
const AGENTS_CHECK_EXCEPTION = '^agents/property/property-agent[.]ts$';

function agentsRules() {
  const floor = LAYERS.findIndex(([name]) => name === AGENTS_FLOOR);
  const above = LAYERS.slice(floor + 1).filter(([name]) => name !== 'agents');
  // pathNot: the floor's own and lower layers stay allowed where a later pattern also matches them (audit-maths inside audit).
  const below = LAYERS.slice(0, floor + 1).map(([, path]) => path);
  const to = (names) => ({
    path: above.filter(([name]) => !names.includes(name)).map(([, path]) => path),
    pathNot: below,
  });
  const comment = 'agents/ imports only src/agent/, src/scenario/ and the layers below them (.dependency-cruiser.cjs';
  return [
    {
      name: 'agents-on-the-agent-floor',
      comment: `${comment} AGENTS_FLOOR)`,
      severity: 'error',
      from: { path: '^agents/', pathNot: AGENTS_CHECK_EXCEPTION },
      to: to([]),
    },
    {
      name: 'agents-on-the-agent-floor-property',
      comment: `${comment} AGENTS_CHECK_EXCEPTION: the property archetype may import src/check/ too)`,
      severity: 'error',
      from: { path: AGENTS_CHECK_EXCEPTION },
      to: to(['check']),
    },
  ];
}

/**
 * Folder faces (fast-check's convention: a public file beside a private folder). The folder's face
 * is its public API, re-exported by name; the folder is its internals, which no file outside it
 * imports (inside it, files import each other directly, never through their own face). The audit
 * wing has two floors, so two doors: src/audit/maths.ts, at the audit-maths layer, for the edge
 * maths and fairness schemes (the one door the layers below src/audit.ts may use), and
 * src/audit.ts for the rest of the wing (docs/decisions/tooling.md "Folder faces"); a third,
 * src/audit/probes.ts, for the probes alone, so `afp audit money` does not load the edge audit.
 * src/live/probe/ (`afp target probe`) has its own face, src/live/probe.ts, which is also a door of
 * src/live/: the probe's input, defaults and texts, light; the probe itself is import()ed.
 * Light faces: live, check, load and the audit wing each have a second face, options.ts, with
 * what a command reads while it checks its flags, before its heavy code loads (Node runs the
 * sources without tree shaking, so a face loads every module behind it: `afp --help` 212 modules
 * instead of 12, `afp check --bogus` 486 instead of 32). The audit's sits on the audit-maths floor,
 * as live reads the scheme names through it. test/tooling/light-faces.test.ts bounds the modules
 * each light face loads. One door per name: a name has one face.
 * [face, folder, doors]: doors are the files of the folder that outside files may import.
 */
const FACES = [
  ['live', 'src/live/', ['src/live.ts', 'src/live/options.ts', 'src/live/probe.ts']],
  ['probe', 'src/live/probe/', ['src/live/probe.ts']],
  ['sim', 'src/sim/', ['src/sim.ts']],
  ['check', 'src/check/', ['src/check.ts', 'src/check/options.ts']],
  ['load', 'src/load/', ['src/load.ts', 'src/load/options.ts']],
  ['audit', 'src/audit/', ['src/audit.ts', 'src/audit/maths.ts', 'src/audit/options.ts', 'src/audit/probes.ts']],
];

/**
 * Doors apart: heavy files of a folder that few paths need, left out of their face so that the
 * face does not load them for every importer (Node runs the sources without tree shaking). The
 * target-file reader pulls zod, yaml and the scenario readers (some 190 modules, ~60 ms a start):
 * through src/live.ts every audit and `afp load URL` loaded it though a URL target reads no file.
 * A scenario's load run (agents, the platform's routes, live), its workers, its run files and
 * autocannon: through src/load.ts `afp load URL` loaded them all for one URL. Imported directly,
 * statically by the library entry (src/index.ts) and the command module that runs them, by
 * import() where a command reads a file; their names are not re-exported by the face (one door
 * per name).
 */
const APART_DOORS = [
  'src/live/target-file.ts',
  'src/load/autocannon-engine.ts',
  'src/load/load-run-file.ts',
  'src/load/load-run.ts',
  'src/load/load-workers.ts',
  'src/load/merge-files.ts',
];

/**
 * Files the k6 bundle reaches (src/export/k6/k6-bundle.ts): esbuild resolves every import of every
 * module it reaches, so a face there would pull the whole folder, node:* modules and autocannon
 * included, into a script k6 runs (the export fails), and would change the script's bytes. These
 * files import the few internals they use directly; test/export/ fails when one reaches a face.
 */
const K6_BUNDLED = [
  'agents/casino/fairness-checker.ts',
  'agents/property/property-agent.ts',
  'src/export/k6/k6-agent-run.ts',
  'src/export/k6/k6-setup.ts',
];

/** A path as an exact pattern. */
function exactly(path) {
  return `^${path.replaceAll('.', '[.]')}$`;
}

/**
 * Two rules per face: from outside the folder (its face aside), nothing imports the folder's
 * internals; from inside it, nothing imports its face (the face imports the folder: a cycle, and a
 * detour for a reader).
 */
function faceRules() {
  const inside = FACES.map(([name, folder, doors]) => ({
    name: `face-${name}-inside`,
    comment: `files of ${folder} import each other directly, never through ${doors.join(' or ')} (.dependency-cruiser.cjs FACES)`,
    severity: 'error',
    from: { path: `^${folder}`, pathNot: doors.map(exactly) },
    to: { path: doors.map(exactly) },
  }));
  const outside = FACES.map(([name, folder, doors]) => ({
    name: `face-${name}`,
    comment: `import ${folder} from outside it only through ${doors.join(' or ')} (or a door apart) (.dependency-cruiser.cjs FACES, APART_DOORS, K6_BUNDLED)`,
    severity: 'error',
    from: { path: '^(src|agents)/', pathNot: [`^${folder}`, ...[...doors, ...K6_BUNDLED].map(exactly)] },
    to: {
      path: `^${folder}`,
      pathNot: [...doors, ...APART_DOORS.filter((door) => door.startsWith(folder))].map(exactly),
      // An import() loads the one module it names, later, and no more: that is its point (a command's
      // work loads once its flags pass), so it may name an internal file; a face would load the folder.
      dependencyTypesNot: ['dynamic-import'],
    },
  }));
  return [...outside, ...inside];
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'not-in-a-layer',
      comment: 'every file under src/ sits in a layer of LAYERS (a new top-level folder is placed there first)',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.map(([, path]) => path) },
      to: {},
    },
    ...layerRules(),
    ...siblingRules(),
    ...agentsRules(),
    ...faceRules(),
    {
      name: 'no-value-cycle',
      comment: 'files that import each other through value imports: the order in which they load decides what works',
      severity: 'error',
      from: { path: '^(src|agents)/' },
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'type-cycle',
      comment:
        'files in a cycle that only a type-only import closes: harmless at run time, but two concepts that lean on each other (move the shared type to a file both import)',
      severity: 'error',
      from: { path: '^(src|agents)/' },
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^(src|agents)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    cache: false,
  },
};
