// The light face of the audit wing: what a command reads while it checks its flags, and what a
// target file or /_afp/mounts may name, before an audit loads: the fairness schemes' names and
// types, and the bounds of a fairness audit's bets. Why a face of its own beside src/audit.ts
// and src/audit/maths.ts: Node runs the sources as they are, with no tree shaking, and either of
// those loads the audits or the edge simulation's workers behind it. It sits on the audit-maths
// floor (below live), since live reads the scheme names (.dependency-cruiser.cjs LAYERS, FACES,
// rule face-audit; test/tooling/light-faces.test.ts keeps it light). Its names are not
// re-exported by the other two faces (one door per name). Files inside src/audit/ import these
// files directly, never this face.

// The fairness schemes a target may announce, and the audit's view of one
export { FAIRNESS_SCHEME_NAMES, type FairnessScheme, type FairnessSchemeName } from './fairness/scheme.ts';

// `afp audit fairness --max-bets`
export { FAIRNESS_BETS_DEFAULT, FAIRNESS_BETS_MAX } from './fairness/bets-limits.ts';
