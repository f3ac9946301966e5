// The light face of src/load/: what `afp load`, `afp export k6` and `afp sweep` read while they
// check a command's flags, before a run's code loads (the `--out` and `--tag` flags, `--shard`,
// `--workers`' bound, a URL run's `--method` and `--check`, a scenario's load profile, the wall
// clock its io holds). Why a second face beside src/load.ts: Node runs the sources as they are,
// with no tree shaking, so src/load.ts loads the generator, the metrics and the reports behind
// it; through this file a command refuses a bad flag having loaded a dozen small modules
// (.dependency-cruiser.cjs FACES, rule face-load; test/tooling/light-faces.test.ts keeps it
// light). Its names are not re-exported by src/load.ts (one door per name). Files inside
// src/load/ import these files directly, never this face.

// `--out` and `--tag`
export {
  OUTPUTS_MAX,
  type OutFlags,
  type OutputSpec,
  parseOutFlags,
  parseTagFlags,
  TAGS_MAX,
} from './metrics/out-flags.ts';

// `--shard i/n` and `--workers N`
export {
  parseShard,
  type Shard,
  SHARD_COUNT_MAX,
  shardArrivals,
  shardIndexes,
  shardLabel,
  shardShare,
  WHOLE,
} from './shard.ts';
export { WORKERS_MAX } from './workers-max.ts';

// A URL run's `--method` and `--check`
export { URL_METHODS, urlEndpointName, urlMethodOf } from './url-method.ts';
export { CHECK_LIMITS, checksOfFlags, checksOfMap } from './url-check-spec.ts';

// A scenario's load profile
export {
  DERIVED,
  derivedLoad,
  derivedRate,
  type ProfileSource,
  profileSourceNote,
  scenarioProfile,
  type ScenarioProfile,
} from './scenario-profile.ts';

// The wall clock of a live run
export { systemLoadClock } from './system-load-clock.ts';
