/**
 * Every afp command and subcommand, one definition each (command-definition.ts); the module that
 * runs each is in command-modules.ts. Why two files: the command modules read their own definition
 * from here, and the table loads the modules, so one file for both made every command module and
 * the table import each other. Adding a command is adding a definition here and its module in
 * command-modules.ts: the entry dispatches it, answers its `--help`, lists it in `afp --help`, and
 * scripts/gen-docs.ts writes its usage block into its page of docs/.
 *
 * A subcommand row (`['audit', 'money']`) loads the module of its command (`audit.ts`), which is
 * given the argv after the command's name (the subcommand's name first), as before.
 * Invariant: paths are unique, and a group (`audit`) has no row of its own unless it is a command
 * too (`load` and `load merge`). Defaults are the texts a reader sees; the values live in the
 * command modules (this file stays light: the entry imports it on every start).
 * One piece: the command table, one definition per command and flag, from which --help, the docs'
 * usage blocks and the exit-code tests are rendered; split, it would scatter the one list of them.
 */
import type { CommandDefinition, FlagDefinition } from './command-definition.ts';
import type { ExitName } from '../core/exit-codes.ts';

const SEVERITY = 'info|minor|major|critical|none';
const DEFECT_DESCRIPTION =
  'tests and demos only: switch on a deliberate platform defect (the names are listed when one is wrong)';

const flag = {
  seed: (description: string, fallback?: string): FlagDefinition => ({
    name: 'seed',
    value: 'N',
    description,
    ...(fallback === undefined ? {} : { default: fallback }),
  }),
  out: (description: string, fallback?: string): FlagDefinition => ({
    name: 'out',
    value: 'DIR',
    description,
    ...(fallback === undefined ? {} : { default: fallback }),
  }),
  target: (description: string, required = false): FlagDefinition => ({
    name: 'target',
    value: 'URL|FILE',
    description,
    ...(required ? { required } : {}),
  }),
  failOn: {
    name: 'fail-on',
    value: 'SEVERITY',
    description: `the severity at which a finding fails the run: ${SEVERITY}`,
    default: 'major',
  } satisfies FlagDefinition,
  json: (description: string): FlagDefinition => ({ name: 'json', description }),
  key: (description: string, fallback?: string): FlagDefinition => ({
    name: 'key',
    value: 'KEY',
    description,
    ...(fallback === undefined ? { required: true } : { default: fallback }),
  }),
  defect: (description = DEFECT_DESCRIPTION): FlagDefinition => ({ name: 'defect', value: 'NAME[,NAME]', description }),
  quiet: { name: 'quiet', short: 'q', description: 'no progress lines on stderr' } satisfies FlagDefinition,
  maxSeconds: {
    name: 'max-seconds',
    value: 'S',
    description: 'time budget of the live run in seconds; reaching it exits 4',
    default: '600',
  } satisfies FlagDefinition,
  maxBodyMb: {
    name: 'max-body-mb',
    value: 'MB',
    description:
      "the most MiB of one answer afp reads, counted after decompression (1 to 256); past it the answer is a finding or the run's end",
    default: '16',
  } satisfies FlagDefinition,
  budget: (fallback: string): FlagDefinition => ({
    name: 'max-seconds',
    value: 'S',
    description: 'the total time budget against the target in seconds; reaching it exits 4 naming the calls under way',
    default: fallback,
  }),
  concurrency: {
    name: 'concurrency',
    value: 'C',
    description: 'requests in flight at once against the target (1 to 16)',
    default: '4',
  } satisfies FlagDefinition,
};

const JSON_VERDICT = 'print one JSON object on stdout instead (its fields are below)';

/** The exits of a command that checks something and may run out of time: 1, 2, 3, 4. */
const CHECKED_EXITS: readonly ExitName[] = ['crash', 'invalidInput', 'checkFailed', 'liveness'];

const RUN: CommandDefinition = {
  path: ['run'],
  summary: 'run a scenario in-process under a virtual clock; check its invariants; write its reports',
  positionals: [{ name: 'FILE', description: 'the scenario file (YAML)' }],
  flags: [
    flag.seed("the seed (overrides the scenario's); 1 to 128 printable characters", "the scenario's"),
    flag.out('where the reports go', 'reports/<scenario>-seed-<seed>'),
    { name: 'record', value: 'FILE', description: 'record every exchange for afp replay', writesFile: true },
    flag.defect(),
    {
      name: 'swarm',
      description:
        'draw from the seed the population mix, tiers, fault windows and game closures; the drawn file is written as <out>/swarm.yaml',
    },
    flag.json(JSON_VERDICT),
    flag.quiet,
  ],
  exits: CHECKED_EXITS,
  json: '{command, seed, verdict, exit_code, scenario, reproduce, events, failure, limit, digest, out, files, swarm (the draws) or null}',
};

const SERVE: CommandDefinition = {
  path: ['serve'],
  summary: 'serve the whole platform as a local stand-in (on 127.0.0.1 unless --host), with time travel',
  positionals: [],
  flags: [
    {
      name: 'port',
      value: 'P',
      description: 'the style-B api port; services use P+1.. (0: any free port)',
      default: '8700',
    },
    flag.seed(
      "the platform's seed (a whole number); keys and mnemonics follow from it",
      "1, or the scenario's or the log's; drawn at random with a --host beyond loopback",
    ),
    {
      name: 'host',
      value: 'ADDR',
      description: 'the IP address to listen on (0.0.0.0 or :: for every interface: a container, a team)',
      default: '127.0.0.1',
    },
    {
      name: 'trust-proxy',
      value: 'CIDR',
      description:
        'read X-Forwarded-For from peers in these ranges (IPv4 or IPv6, comma-separated or repeated); without it the socket address is the client',
      repeatable: true,
    },
    {
      name: 'public-url',
      value: 'URL|SERVICE=URL',
      description:
        "what afp serve prints and /_afp/mounts announces: URL for every service (each keeps its port offset), SERVICE=URL for one; without it /_afp/mounts answers with the caller's Host",
      repeatable: true,
    },
    {
      name: 'admin-token',
      value: 'TOKEN',
      description:
        'callers beyond loopback that send it in X-AFP-Admin-Token may use the admin doors (/_afp/*); 16-256 printable characters; AFP_ADMIN_TOKEN is read when the flag is absent (and keeps it out of ps)',
    },
    {
      name: 'clock',
      value: 'wall|manual',
      description: 'a wall clock, or one that stands still until POST /_afp/clock moves it',
      default: 'wall',
    },
    { name: 'start', value: 'ISO', description: "the clock's start instant (in the past: with --clock manual)" },
    {
      name: 'scenario',
      value: 'FILE',
      description: 'serve the platform this scenario runs on (seed, start, overrides, fault windows)',
    },
    {
      name: 'data',
      value: 'FILE',
      description: 'durable: commit every command to this SQLite log; a restart replays it',
    },
    {
      name: 'dialect',
      value: 'documents|deployed',
      description: "the documents' styles, or the deployment's wire (spec/DEPLOYED.md)",
      default: 'documents',
    },
    {
      name: 'rules',
      value: 'FILE',
      description:
        'with --dialect deployed: the casino plays these overrides of the published rules (schemas/deployed-rules.schema.json)',
    },
    {
      name: 'lift-deployed-limits',
      description:
        'with --dialect deployed, for tests: no per-IP windows or per-agent games/batch buckets (the faucet cooldown stays)',
    },
    {
      name: 'float-money',
      description:
        "with --dialect deployed: write the casino's money as the deployment does (doubles with their rounding noise; amount_won, new_balance to 2 dp); the same as a rules file's money: { float_noise: true }",
    },
    {
      name: 'checkpoint-every',
      value: 'N',
      description: 'with --data: commands between two state checkpoints',
      default: '20000',
    },
    {
      name: 'salvage',
      description:
        'with --data: a damaged FILE goes on from its intact prefix (kept as FILE.damaged) instead of refusing to start',
    },
    {
      name: 'fsync-answers',
      description:
        'with --data: answer a write once the log is fsynced (safe from power loss too; a client that waits on each answer also waits on the disk) instead of once it is committed (safe from a crash or kill -9; the fsync follows within milliseconds)',
    },
    {
      name: 'max-in-flight',
      value: 'N',
      description: 'requests in flight beyond which new ones are shed with 503 (0: no bound)',
      default: '1024',
    },
    {
      name: 'max-receiving',
      value: 'N',
      description:
        'of those, requests still receiving their bodies beyond which a new one is shed (0: no bound of their own; default: half of --max-in-flight)',
    },
    {
      name: 'max-event-loop-delay-ms',
      value: 'MS',
      description: 'event-loop lateness beyond which requests are shed (0: not measured)',
      default: '1000',
    },
    {
      name: 'defect',
      value: 'NAME[,NAME]',
      description: `${DEFECT_DESCRIPTION}; one only the other --dialect reaches is refused`,
      repeatable: true,
    },
  ],
  exits: ['crash', 'invalidInput'],
  notes: ['Prints seed: N, one line per mount, then ready; SIGTERM or SIGINT drain and exit 0.'],
};

const AUTOCANNON_FLAGS: readonly FlagDefinition[] = [
  {
    name: 'endpoint',
    value: 'OPERATION|SERVICE:/PATH|URL',
    description: '--engine autocannon with a SCENARIO or --target: the one endpoint to load',
  },
  {
    name: 'connections',
    value: 'N',
    description: '--engine autocannon: connections of the closed loop',
    default: '10',
  },
  { name: 'amount', value: 'N', description: '--engine autocannon: at most this many requests' },
  { name: 'key', value: 'KEY', description: '--engine autocannon: the API key for keyed endpoints' },
];

/** The flags only `afp load --engine autocannon` takes (the open-model run refuses them). */
export const AUTOCANNON_ONLY: readonly string[] = AUTOCANNON_FLAGS.map((definition) => definition.name);

/** `afp load URL`'s request and profile (and --engine autocannon's request: --body, --timeout). */
const URL_FLAGS: readonly FlagDefinition[] = [
  { name: 'url', value: 'URL', description: 'the http(s) URL to load (as the positional URL)' },
  {
    name: 'method',
    value: 'M',
    description: "a URL's request method: GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS",
    default: 'GET',
  },
  { name: 'header', value: "'K: V'", description: 'a request header of a URL run', repeatable: true },
  {
    name: 'body',
    value: 'TEXT',
    description: 'the request body (content-type application/json unless a --header says otherwise)',
  },
  { name: 'body-file', value: 'FILE', description: 'the request body, read from FILE' },
  {
    name: 'threshold',
    value: "'METRIC: EXPR'",
    description: "a k6 threshold of a URL run, e.g. 'http_req_duration: p(95)<200', 'http_req_failed: rate<0.01'",
    repeatable: true,
  },
  { name: 'timeout', value: 'D', description: 'per request (a URL run, --engine autocannon)', default: '10s' },
  {
    name: 'check',
    value: 'SPEC',
    description:
      "a check on every answer of a URL run, counted as k6's check(): status=200, status=200,201, body~TEXT or json:$.path=VALUE",
    repeatable: true,
  },
  {
    name: 'requests',
    value: 'FILE',
    description:
      'instead of one URL: a YAML or JSON list of requests sent in order every iteration, each with method, url, headers, body, name and checks (docs/load.md)',
  },
  {
    name: 'insecure-skip-tls-verify',
    description: "https: take the target's certificate without checking it (k6's flag; a self-signed test server)",
  },
];

/**
 * The load profile as k6's flags give it (src/cli/profile-flags.ts), for a URL and a SCENARIO alike:
 * a scenario's replace its `load:` profile (its thresholds stay), or the one derived when it has none.
 */
export const PROFILE_FLAGS: readonly FlagDefinition[] = [
  {
    name: 'rate',
    value: 'N/s',
    description:
      'the open model: N iterations per second (or N/m, N/100ms…) arrive whatever the latency (k6 constant-arrival-rate)',
  },
  {
    name: 'vus',
    short: 'u',
    value: 'N',
    description:
      'a closed loop: N virtual users, each starting its next iteration when the last has ended (k6 constant-vus; with --stage: the start)',
  },
  {
    name: 'max-vus',
    value: 'N',
    description:
      'with --rate: iterations in flight at most (k6 maxVUs); an arrival past it is a dropped iteration, counted',
    default: "1000 (a SCENARIO's derived profile: min(agents, 20))",
  },
  {
    name: 'iterations',
    short: 'i',
    value: 'N',
    description: 'exactly N arrivals of the open model, at --rate (or the default rate, N a second at most), then stop',
  },
  {
    name: 'stage',
    value: 'D:T',
    description:
      "k6's stage: ramp to T over D (ramping-vus; with --rate, ramping-arrival-rate from that rate), e.g. --stage 30s:10 --stage 1m:10",
    repeatable: true,
  },
];

/** The flags only `afp load URL` (and autocannon's closed loop on a URL) take: a scenario run refuses them. */
export const URL_ONLY: readonly string[] = URL_FLAGS.map((definition) => definition.name);

const LOAD: CommandDefinition = {
  path: ['load'],
  summary: "load a live target with a scenario's agents, or any http(s) URL, in the open model; judge thresholds",
  positionals: [
    {
      name: 'SCENARIO|URL',
      description: 'the scenario file, or an http(s) URL to load alone (no scenario, target file or keys needed)',
    },
  ],
  flags: [
    flag.target("a SCENARIO's live target: an afp serve URL or a target file (required with a SCENARIO)"),
    {
      name: 'out',
      value: 'DIR|prometheus=URL|json=FILE',
      description:
        "DIR: where the load reports go (and, for a SCENARIO run, load.json for afp load merge); prometheus=URL: stream the metrics by Prometheus remote write, named as k6's output names them; json=FILE: k6's JSON output, a point per sample",
      default: 'reports/<scenario>-load, reports/url-load',
      repeatable: true,
    },
    {
      name: 'tag',
      value: 'NAME=VALUE',
      description:
        "a label on every metric the outputs send (k6's --tag); testid=… names the run (default: its start time in base 36, printed with the outputs)",
      repeatable: true,
    },
    flag.seed('the seed; 1 to 128 printable characters', "the scenario's"),
    {
      name: 'duration',
      short: 'd',
      value: 'D',
      description:
        "the run's length (overrides the profile's; a URL run: default 30s; a SCENARIO without load: its derived profile's, at most 30s)",
    },
    { name: 'quiet', short: 'q', description: 'no live view on stderr' },
    flag.json(JSON_VERDICT),
    { name: 'shard', value: 'I/N', description: 'run the I-th of N shares of the load (merge with afp load merge)' },
    { name: 'workers', value: 'N', description: 'worker threads generating the load', default: '1' },
    {
      name: 'engine',
      value: 'afp|autocannon',
      description: "afp's open-model generator, or autocannon's closed loop on one endpoint",
      default: 'afp',
    },
    ...URL_FLAGS,
    ...PROFILE_FLAGS,
    ...AUTOCANNON_FLAGS,
  ],
  exits: ['crash', 'invalidInput', 'liveness', 'loadThreshold'],
  notes: [
    "A SCENARIO without load: runs a profile derived from it (printed in the plan); --rate, -u/--vus, -d/--duration, -i/--iterations and --stage (k6's flags) override the profile, the file's thresholds kept.",
    "A URL run: afp load URL (--rate N/s [--max-vus N] | --vus N) [--duration D] [--method M] [--header 'K: V']... [--body TEXT | --body-file FILE] [--threshold 'METRIC: EXPR']... [--out DIR] [--out prometheus=URL] [--out json=FILE]; its endpoint is named METHOD /path in every report, threshold filter and metric label.",
    "--engine autocannon measures one endpoint's capacity in a closed loop: afp load URL --engine autocannon [--connections N] [--duration D] [--amount N] [--timeout D] [--method M] [--header 'K: V']... [--body TEXT] [--threshold 'METRIC: EXPR']..., or afp load [SCENARIO] --engine autocannon --endpoint E --target URL|FILE [--key KEY] ...; SCENARIO, when given, brings its thresholds and duration.",
    "Every run's summary checks its figures by Little's law (requests/s × mean latency = mean in flight, against the configured connections or VUs, else the in-flight measured on the wire), flagged past 20%.",
  ],
  json: '{command, seed, verdict, exit_code, scenario, target, ended_by, stop_reason, seconds, requests, failed, refused: {answers, rate_limited, server_errors, mostly}, latency_ms, iterations, littles_law, thresholds, files} (autocannon: engine, requests, failed, refused, no_answer, latency_ms, littles_law, thresholds, files)',
};

const LOAD_MERGE: CommandDefinition = {
  path: ['load', 'merge'],
  summary: "merge the load.json files of one run's shards into one report",
  positionals: [{ name: 'FILE', description: "a shard's load.json", repeatable: true }],
  flags: [
    { name: 'out', value: 'DIR', description: 'where the merged load.json and reports go', required: true },
    { name: 'scenario', value: 'FILE', description: "judge this scenario's thresholds on the merged run" },
    flag.json(JSON_VERDICT),
  ],
  exits: ['crash', 'invalidInput', 'loadThreshold'],
  json: '{command, seed, verdict, exit_code, scenario, target, shards, requests, dropped_iterations, thresholds, files}',
};

const REPLAY: CommandDefinition = {
  path: ['replay'],
  summary: 'send a recorded run to a live target in recorded order and pacing; diff every answer',
  positionals: [{ name: 'FILE', description: 'a record written by afp run --record' }],
  flags: [
    flag.target('an afp serve URL, any URL, or a target file', true),
    {
      name: 'speed',
      value: 'X|0|max',
      description: 'pacing: X times the recorded pace; 0 or max: no waiting',
      default: '1',
    },
    flag.out('where diff.json and diff.txt (or the findings) go', 'reports/replay'),
    {
      name: 'sync-clock',
      value: 'auto|on|off',
      description: "move an afp serve's clock to each exchange's instant",
      default: 'auto',
    },
    {
      name: 'concurrency',
      value: '1',
      description: 'exchanges in flight (only 1: the recorded order is kept)',
      default: '1',
    },
    { name: 'timeout-ms', value: 'N', description: 'per request, in milliseconds', default: '10000' },
    flag.budget('3600'),
    flag.maxBodyMb,
    {
      name: 'with-admin',
      description:
        "also send the record's exchanges aimed at afp serve's admin doors (/_afp/*: reset, clock, tier…); without it they are skipped and listed",
    },
    flag.failOn,
    flag.json(JSON_VERDICT),
    flag.quiet,
  ],
  exits: CHECKED_EXITS,
  json: '{command, seed, verdict, exit_code, scenario, exchanges, target, reproduce, out, sent, differences, stopped, admin_skipped, files}',
};

const CHECK: CommandDefinition = {
  path: ['check'],
  summary: 'model-based property checks of every service, in-process or against a target',
  positionals: [],
  flags: [
    flag.target('check a live target (an afp serve URL or a target file) instead of in-process'),
    flag.seed('the seed (a whole number)', 'drawn and printed'),
    { name: 'runs', value: 'N', description: 'command sequences to run', default: '100' },
    { name: 'path', value: 'P', description: 'replay one failing path (with --seed)' },
    { name: 'max-commands', value: 'N', description: 'commands per sequence', default: '116' },
    flag.defect(`in-process only: ${DEFECT_DESCRIPTION}`),
    flag.budget('1800'),
    flag.maxBodyMb,
    flag.failOn,
    flag.out(
      'where the findings reports go (findings.json, .csv, .junit.xml: a test case per check, .html), in-process or live',
    ),
    flag.json(JSON_VERDICT),
    flag.quiet,
  ],
  exits: CHECKED_EXITS,
  json: '{command, seed, verdict, exit_code, runs, shrinks, target, notes, failure (kind mismatch, unavailable, error, or findings: those at --fail-on), reproduce, files (with --out)}',
};

const HOUSE_EDGE: CommandDefinition = {
  path: ['audit', 'house-edge'],
  summary: 'per game and variant: advertised, theoretical and empirical house edge, with a verdict',
  positionals: [],
  flags: [
    { name: 'games', value: 'LIST', description: 'comma-separated game ids', default: 'all 17' },
    {
      name: 'bets',
      value: 'N',
      description: 'bets per game, split across its variants',
      default: '100000 in-process, 2000 live',
    },
    flag.seed('the seed; 1 to 128 printable characters', 'drawn and printed'),
    flag.json(`${JSON_VERDICT}; the edge rows under "edges"`),
    { name: 'csv', description: 'print edges.csv on stdout instead of the table' },
    flag.out('where edges.csv, edges.json, report.html (and live: the findings) go', 'reports/audit-<seed>'),
    { name: 'workers', value: 'N', description: 'in-process: simulator threads', default: 'min(2, cores)' },
    { name: 'defect', value: 'NAME', description: 'in-process, tests and demos: payout-short, biased-draw or keno-8' },
    flag.target('audit a live target (a URL or a target file) with real bets'),
    flag.key('live: the API key of the account to bet with', "a fresh account funded the target's way"),
    flag.maxSeconds,
    { name: 'max-minutes', value: 'M', description: 'live: the time budget in minutes (instead of --max-seconds)' },
    { name: 'usdc', value: 'X', description: 'live: the stakes budget in USDC', default: 'what the bets stake' },
    flag.maxBodyMb,
    flag.failOn,
    flag.concurrency,
    flag.quiet,
  ],
  exits: CHECKED_EXITS,
  notes: [
    'In-process by default (--workers and --defect apply only there); with --target the live audit, where --key, --usdc, --max-minutes or --max-seconds, --concurrency and --fail-on apply.',
  ],
  json: '{command, seed, verdict, exit_code, then in-process: bets_per_game, rows, model_misses, misses_allowed, verdicts, files, reproduce, edges; live: target, placed, verified, refused, staked_usdc, stopped_by, findings, files, reproduce, edges}',
};

const MONEY: CommandDefinition = {
  path: ['audit', 'money'],
  summary: 'money-path probes of a live target: overdraws, double spends, bad input, pots, MCP doors, settlement',
  positionals: [],
  flags: [
    flag.target('the live target: a URL or a target file', true),
    flag.key('the API key of the account to probe with', 'a fresh account'),
    {
      name: 'second-key',
      value: 'KEY',
      description: 'the second account (the double spend; it accepts the challenges)',
      default: "the file's second key, or a fresh one",
    },
    {
      name: 'withdraw-address',
      value: 'ADDR',
      description: 'allow the overdraw probe against anything but an afp serve',
    },
    {
      name: 'include-slow',
      description:
        'also the settlement probes: an escrow at the shortest expiry, a dispute window (time travel on an afp serve, else waiting)',
    },
    {
      name: 'max-minutes',
      value: 'N',
      description: 'with --include-slow: the longest the slow probes may wait (1 to 4320)',
      default: '90',
    },
    {
      name: 'resume-file',
      value: 'FILE',
      description:
        'with --include-slow, --key and --second-key: open the slow probe whose wait does not fit and leave its escrow, writing FILE (no keys) and the --resume command line',
    },
    {
      name: 'resume',
      value: 'FILE',
      description:
        'judge the escrows a --resume-file run left, once due (a CI schedule 48 h later); needs the same --key and --second-key',
    },
    flag.out('where the findings reports go', 'reports/money-<time>'),
    flag.failOn,
    flag.maxSeconds,
    flag.maxBodyMb,
    flag.json(JSON_VERDICT),
    flag.quiet,
  ],
  exits: CHECKED_EXITS,
  json: '{command, seed (null), verdict, exit_code, target, probes, findings, out}',
};

const FAIRNESS: CommandDefinition = {
  path: ['audit', 'fairness'],
  summary: "verify every bet of an account under the target's own fairness scheme",
  positionals: [],
  flags: [
    flag.target('the live target: a URL or a target file', true),
    flag.key('the API key of the account to audit'),
    { name: 'max-bets', value: 'N', description: 'bets of the history to audit', default: '10000' },
    flag.maxSeconds,
    flag.maxBodyMb,
    flag.concurrency,
    flag.out('where fairness.json and the findings reports go', 'reports/fairness-<time>'),
    flag.failOn,
    flag.json(`${JSON_VERDICT}; fairness.json under "fairness"`),
    flag.quiet,
  ],
  exits: CHECKED_EXITS,
  json: '{command, seed (null), verdict, exit_code, target, scheme, listed, audited, verified, stopped_by, findings, files, fairness}',
};

const EXPORT_K6: CommandDefinition = {
  path: ['export', 'k6'],
  summary: "write a scenario (afp's own agents, bundled) or a URL run as one k6 script, profile and thresholds",
  positionals: [
    {
      name: 'SCENARIO|URL',
      description: 'the scenario file, or an http(s) URL to load alone (as afp load URL; or --url URL)',
      optional: true,
    },
  ],
  flags: [
    {
      name: 'out',
      value: 'FILE',
      description: 'write the script there (replaced if it exists)',
      default: 'stdout',
      writesFile: true,
    },
    {
      name: 'target',
      value: 'URL',
      description:
        'the default AFP_TARGET baked into the script (the style-B api URL); with --k8s an afp serve (its /_afp/mounts read once) or a target FILE, whose URLs the TestRun carries',
    },
    flag.seed('the seed the agents draw from; 1 to 128 printable characters', "the scenario's"),
    {
      name: 'k8s',
      value: 'N',
      description:
        "also write FILE's k6-operator resources beside it: FILE.configmap.yaml (the script) and FILE.testrun.yaml (a TestRun of parallelism N whose runner env holds AFP_TARGET and AFP_TARGET_<SERVICE> for every mount the agents send to); needs --out (and, for a scenario, --target: refused when its URLs cannot be learnt)",
    },
    {
      name: 'tag',
      value: 'NAME=VALUE',
      description: "a URL run's export: a tag on every metric k6 records (k6's options.tags, as afp load --tag)",
      repeatable: true,
    },
    ...URL_FLAGS,
    ...PROFILE_FLAGS,
    {
      name: 'duration',
      short: 'd',
      value: 'D',
      description:
        "a URL run's length (default 30s); a scenario's: overrides its constant profile's (or its derived one's)",
    },
  ],
  exits: ['crash', 'invalidInput'],
  notes: [
    'Run the script with: k6 run --no-usage-report -e AFP_TARGET=<api URL> FILE',
    'Thresholds: dropped_iterations and afp_late_agent_steps stay at count==0 unless load.thresholds names them; a mount without a URL aborts the run (k6 exits 108).',
    'Across processes: k6 run --execution-segment 0:1/2 -e AFP_RUN_ID=TAG … and --execution-segment 1/2:1 -e AFP_RUN_ID=TAG …: each process owns its share of the agents.',
    "A SCENARIO without load: is exported on its derived profile (afp load's); --rate, -u/--vus, -d/--duration, -i/--iterations and --stage override it as for afp load.",
    "A URL run: afp export k6 URL (--rate N/s [--max-vus N] | --vus N) [--duration D] [--method M] [--header 'K: V']... [--body TEXT | --body-file FILE] [--threshold 'METRIC: EXPR']... — the test afp load URL runs with the same flags, for k6 (k6 run --no-usage-report FILE).",
  ],
};

const TARGET_PROBE: CommandDefinition = {
  path: ['target', 'probe'],
  summary: 'look at live URLs with safe GETs; say which service and dialect each is; write a target file',
  positionals: [{ name: 'URL', description: 'a base URL to probe', repeatable: true }],
  flags: [
    {
      name: 'out',
      value: 'FILE',
      description: 'write the target file there (the table goes to stdout)',
      default: 'the file to stdout, the table to stderr',
      writesFile: true,
    },
    { name: 'force', description: 'overwrite an existing --out FILE' },
    { name: 'timeout-ms', value: 'N', description: 'per request, 100 to 60000', default: '5000' },
    flag.budget('120'),
    flag.maxBodyMb,
    flag.json(JSON_VERDICT),
  ],
  exits: ['crash', 'invalidInput', 'liveness'],
  json: '{command, seed (null), verdict, exit_code, urls, answered, services, out, target_file}',
};

const SWEEP: CommandDefinition = {
  path: ['sweep'],
  summary: 'run a scenario under many seeds on every core: failures with reproduce lines, distributions, JUnit',
  positionals: [{ name: 'SCENARIO', description: 'the scenario file (YAML)' }],
  flags: [
    {
      name: 'seeds',
      value: '1..N',
      description: 'the seeds: a range, a list or both (1..1000, 7,42, 1..100,4242)',
      required: true,
    },
    { name: 'workers', value: 'K', description: 'worker threads, 1 to 64', default: 'one per core' },
    { name: 'shard', value: 'I/N', description: 'run every N-th seed from the I-th (merge with afp sweep merge)' },
    flag.out(
      'where sweep.json, seeds.csv, distributions.csv, coverage.csv and sweep.junit.xml go',
      'reports/<scenario>-sweep',
    ),
    flag.defect(),
    {
      name: 'swarm',
      description: 'each seed draws its own population mix, tiers, fault windows and closures (as afp run --swarm)',
    },
    {
      name: 'shrink',
      description:
        'shrink the first seed that fails an invariant, else its liveness check (as afp shrink), into <out>/shrunk-seed-<seed>/',
    },
    { name: 'max-runs', value: 'N', description: 'with --shrink: candidate runs at most, 1 to 10000', default: '200' },
    flag.json(JSON_VERDICT),
    flag.quiet,
  ],
  exits: CHECKED_EXITS,
  json: '{command, seed (null), verdict, exit_code, scenario, shard, tally, failures, probes_never_hit, files, and with --shrink: shrunk (seed, failed, invariant, original, shrunk, factor, runs, file, reproduce) or null}',
};

const SWEEP_MERGE: CommandDefinition = {
  path: ['sweep', 'merge'],
  summary: "merge the sweep.json files of one sweep's shards into the whole sweep's reports",
  positionals: [{ name: 'FILE', description: "a shard's sweep.json", repeatable: true }],
  flags: [flag.out('where the merged reports go', 'reports/<scenario>-sweep'), flag.json(JSON_VERDICT)],
  exits: CHECKED_EXITS,
  json: '{command, seed (null), verdict, exit_code, scenario, shard, tally, failures, probes_never_hit, files}',
};

const SHRINK: CommandDefinition = {
  path: ['shrink'],
  summary: 'cut a failing run down while it fails the same way (invariant or liveness); write the small scenario',
  positionals: [{ name: 'SCENARIO', description: 'the scenario file (YAML) whose run fails' }],
  flags: [
    flag.seed("the seed (overrides the scenario's)", "the scenario's"),
    flag.defect(),
    flag.out("where shrunk.yaml and its run's reports go", 'reports/<scenario>-shrunk'),
    { name: 'max-runs', value: 'N', description: 'candidate runs at most, 1 to 10000', default: '200' },
    flag.json(JSON_VERDICT),
    flag.quiet,
  ],
  exits: ['crash', 'invalidInput', 'checkFailed', 'liveness'],
  json: '{command, seed, verdict, exit_code, holds, original, then when shrunk: failed (invariant or liveness), invariant (null for liveness), shrunk, factor, runs, budget_spent, file, reproduce, files; when stopped by another limit: limit}',
  notes: [
    'Exit 3 when an invariant failure was shrunk (it still fails, in the smaller file); 4 when a liveness failure was shrunk, or the run stopped at another limit (not shrunk); 0 when the run holds.',
  ],
};

const SCENARIO_NEW: CommandDefinition = {
  path: ['scenario', 'new'],
  summary: 'write a commented starting scenario that validates and runs',
  positionals: [
    {
      name: 'FILE',
      description: "where to write it (default stdout); the buyers' parameters are written out with their defaults",
      optional: true,
    },
  ],
  flags: [
    {
      name: 'name',
      value: 'NAME',
      description: "the scenario's name (a-z, 0-9 and -)",
      default: "FILE's name, else starter",
    },
    { name: 'force', description: 'replace an existing FILE' },
  ],
  exits: ['crash', 'invalidInput'],
};

const SCENARIO_CHECK: CommandDefinition = {
  path: ['scenario', 'check'],
  summary: 'validate a scenario file (schema and meaning) without running it',
  positionals: [{ name: 'FILE', description: 'the scenario file (YAML)' }],
  flags: [flag.json(JSON_VERDICT)],
  exits: ['crash', 'invalidInput'],
  json: '{command, seed (null), verdict, exit_code, file, scenario, populations, agents, errors (invalid input)}',
};

const AGENTS_LIST: CommandDefinition = {
  path: ['agents'],
  summary: 'list the agent archetypes a population can name, with their parameters and ranges',
  positionals: [{ name: 'NAME', description: 'archetypes to show (default all)', repeatable: true, optional: true }],
  flags: [
    flag.json('print one JSON array of { name, description, params } (params as JSON Schema) instead of the table'),
  ],
  exits: ['crash', 'invalidInput'],
};

/** Every command's definition, in the order `afp --help` lists them. */
export const DEFINITIONS: readonly CommandDefinition[] = [
  RUN,
  SERVE,
  LOAD,
  LOAD_MERGE,
  SWEEP,
  SWEEP_MERGE,
  SHRINK,
  REPLAY,
  CHECK,
  HOUSE_EDGE,
  MONEY,
  FAIRNESS,
  EXPORT_K6,
  SCENARIO_NEW,
  SCENARIO_CHECK,
  AGENTS_LIST,
  TARGET_PROBE,
];

/** The definition at `path` (a command must have one: a missing row is a bug). */
export function definitionOf(...path: string[]): CommandDefinition {
  const definition = DEFINITIONS.find((candidate) => candidate.path.join(' ') === path.join(' '));
  if (definition === undefined) throw new Error(`no command definition for afp ${path.join(' ')}`);
  return definition;
}
