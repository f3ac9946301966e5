// The light face of src/check/: what `afp check` reads while it checks its flags, before fast-check,
// the model and the platform load (the options' type, their defaults and bounds, and their checks).
// Why a face of its own beside src/check.ts: Node runs the sources as they are, with no tree
// shaking, and src/check.ts loads the model behind it (.dependency-cruiser.cjs FACES, rule
// face-check; test/tooling/light-faces.test.ts keeps it light). Its names are not re-exported by
// src/check.ts (one door per name). Files inside src/check/ import check-options.ts directly.

export {
  type CheckOptions,
  checkOptionErrors,
  MAX_COMMANDS,
  REQUEST_TIMEOUT_MS_DEFAULT,
  RUNS_DEFAULT,
  RUNS_MAX,
} from './check-options.ts';
