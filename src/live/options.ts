// The light face of src/live/: `--target FILE|URL` resolved into a Target, the first step of every
// live command, taken before the command's own code loads (a bad target is refused having loaded a
// few small modules; a target file's parser is import()ed only for a file). Why a face of its own
// beside src/live.ts: Node runs the sources as they are, with no tree shaking, and src/live.ts
// loads the sessions, the dialects and the accounts behind it (.dependency-cruiser.cjs FACES,
// rule face-live; test/tooling/light-faces.test.ts keeps it light). Its names are not
// re-exported by src/live.ts (one door per name). Files inside src/live/ import resolve-target.ts
// directly.

export {
  RESOLVE_TIMEOUT_MS,
  type ResolveFailure,
  type ResolveOptions,
  type ResolveResult,
  resolveTarget,
} from './resolve-target.ts';
