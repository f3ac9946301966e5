// The face of src/live/probe/, `afp target probe`: what the command reads before the probe runs
// (its input's checks, the defaults it prints) and the text it writes after (the endpoint table,
// the target file, the line that describes a server which is not the platform). Why a face of its
// own, beside src/live.ts: the probe is the one part of live that a command drives alone, and
// through src/live.ts it would load every live session and dialect before its flags pass. The
// probe itself (probe/probe-target.ts: the GETs, the classifier, the chosen services) is import()ed
// by the command once its flags pass, so this file stays light (.dependency-cruiser.cjs FACES).
export { MAX_URLS, probeInput, type ProbeInput } from './probe/probe-input.ts';
export { PROBE_TIMEOUT_MS } from './probe/probe-url.ts';
export { renderProbeTable } from './probe/probe-report.ts';
export { renderTargetText } from './probe/target-text.ts';
export { serverLine } from './probe/plain-server.ts';
