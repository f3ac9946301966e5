// The layers of afp, checked: `npm run layers` (and `npm test`, as one of its held steps).
// Why a tool and not a convention: an upward import (core importing the CLI, sim importing the
// agent table) compiles and runs, so only a check keeps the layering true (docs/design.md "The layers, as they stand",
// docs/layout.md "The layers, checked": the list below is that section; change both together).
// LAYERS runs from the inside out: a file may import only from its own layer or one listed
// BEFORE it. The order is a total order, so two folders can never import each other. Cycles:
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
  ['client', '^src/client/'],
  ['audit-maths', '^src/audit/(edge|fairness)/'],
  ['report', '^src/report/'],
  ['sim', '^src/sim/'],
  ['live', '^src/live/'],
  ['audit', '^src/audit/'],
  ['check', '^src/check/'],
  ['replay', '^src/replay/'],
  ['conformance', '^src/conformance/'],
  ['agents', '^agents/'],
  ['load', '^src/load/'],
  ['export', '^src/export/'],
  ['sweep', '^src/sweep/'],
  ['shrink', '^src/shrink/'],
  ['server', '^src/server/'],
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
