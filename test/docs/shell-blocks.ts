/**
 * The shell blocks of the documentation and how test/docs/shell-blocks.test.ts runs them.
 * Why: a recipe that fails as pasted is worse than none, so every ```sh, ```bash and ```console
 * block of README.md and docs/*.md runs in `npm test`. A block may be preceded (on the line just
 * above its fence) by one marker saying how it runs here; docs/layout.md documents it:
 *
 *   <!-- test: skip: REASON -->                      not run; the reason is listed in the output
 *   <!-- test: ports: 8700; replace: A => B; exit: 3; timeout: 120; env: NAME=VALUE -->
 *
 * `ports: BASE` moves the listeners BASE..BASE+7 the block names (`127.0.0.1:P`, `--port P`) and
 * the working copy's targets/*.yaml to free loopback ports; `replace: A => B` makes a size small
 * (every occurrence of A in the block becomes B; repeatable); `exit: N` is the status the block
 * must end with (default 0); `timeout: S` bounds it in seconds (default 600: a bound on a hang, not a budget; a
 * block of a few `npx afp` runs took 115 s on a 2-core machine at load 36, against 6 CPU s); `env: NAME=VALUE`
 * sets a variable (repeatable); `or-exit: N when TEXT` also accepts status N, provided the output
 * holds TEXT (for a latency threshold that a busy machine can fail, where the block still shows
 * what it is for). A ```console block runs its `$ ` lines. Unknown directives are
 * errors, so a misspelt marker cannot silently change what runs.
 */

export interface ShellBlock {
  /** The file, from the repository root. */
  readonly path: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The commands, as a reader pastes them (indentation of a list item removed). */
  readonly script: string;
  readonly marker: BlockMarker;
}

export interface BlockMarker {
  readonly skip: string | null;
  readonly ports: number | null;
  readonly replacements: ReadonlyArray<readonly [string, string]>;
  readonly exit: number;
  /** Another accepted status, provided the output holds `when`. */
  readonly orExit: { readonly status: number; readonly when: string } | null;
  readonly timeoutSeconds: number;
  readonly env: Readonly<Record<string, string>>;
}

const SHELL_LANGS = new Set(['sh', 'bash', 'console', 'shell']);
const MARKER = /^<!-- test: (.*) -->$/;
export const PORT_SPAN = 8;

export const DEFAULT_MARKER: BlockMarker = {
  skip: null,
  ports: null,
  replacements: [],
  exit: 0,
  orExit: null,
  timeoutSeconds: 600,
  env: {},
};

/** The marker's directives; throws (a documentation bug) on anything it does not know. */
export function parseMarker(text: string): BlockMarker {
  const skip = /^skip:\s*(.+)$/.exec(text);
  if (skip !== null) return { ...DEFAULT_MARKER, skip: (skip[1] ?? '').trim() };
  const marker = {
    ...DEFAULT_MARKER,
    orExit: null as BlockMarker['orExit'],
    replacements: [] as Array<[string, string]>,
    env: {} as Record<string, string>,
  };
  for (const part of text
    .split(';')
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '')) {
    const match = /^([\w-]+):\s*(.*)$/.exec(part);
    const key = match?.[1];
    const value = (match?.[2] ?? '').trim();
    if (key === 'ports' && /^\d+$/.test(value)) marker.ports = Number(value);
    else if (key === 'exit' && /^\d+$/.test(value)) marker.exit = Number(value);
    else if (key === 'or-exit' && /^\d+ when .+$/.test(value)) {
      const at = value.indexOf(' when ');
      marker.orExit = { status: Number(value.slice(0, at)), when: value.slice(at + ' when '.length) };
    } else if (key === 'timeout' && /^\d+$/.test(value)) marker.timeoutSeconds = Number(value);
    else if (key === 'replace' && value.includes(' => ')) {
      const [from = '', to = ''] = value.split(' => ');
      marker.replacements.push([from, to]);
    } else if (key === 'env' && /^[A-Z_][A-Z0-9_]*=/.test(value)) {
      const at = value.indexOf('=');
      marker.env[value.slice(0, at)] = value.slice(at + 1);
    } else
      throw new Error(`unknown test directive "${part}" (known: skip, ports, replace, exit, or-exit, timeout, env)`);
  }
  return marker;
}

/** Every shell block of one documentation file, with its marker. */
export function shellBlocks(path: string, text: string): ShellBlock[] {
  const lines = text.split('\n');
  const blocks: ShellBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(\s*)```(\w+)\s*$/.exec(lines[index] ?? '');
    if (open === null) continue;
    const indent = open[1] ?? '';
    const close = lines.findIndex((line, at) => at > index && line.trim() === '```');
    if (close < 0) throw new Error(`${path}:${index + 1}: a fence that never closes`);
    if (SHELL_LANGS.has(open[2] ?? '')) {
      const body = lines
        .slice(index + 1, close)
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
      const script =
        open[2] === 'console'
          ? body
              .filter((line) => line.startsWith('$ '))
              .map((line) => line.slice(2))
              .join('\n')
          : body.join('\n');
      const above = (lines[index - 1] ?? '').trim();
      const marker = MARKER.exec(above);
      blocks.push({
        path,
        line: index + 1,
        script,
        marker: marker === null ? DEFAULT_MARKER : parseMarker(marker[1] ?? ''),
      });
    }
    index = close;
  }
  return blocks;
}

/** `text` with the listeners base..base+7 moved to `to`..`to`+7 (URLs on 127.0.0.1 and `--port`). */
export function movePorts(text: string, base: number, to: number): string {
  return text.replace(/(127\.0\.0\.1:|--port )(\d+)\b/g, (whole, prefix: string, port: string) => {
    const offset = Number(port) - base;
    return offset >= 0 && offset < PORT_SPAN ? `${prefix}${to + offset}` : whole;
  });
}

/** The block's commands with its replacements applied (ports not yet moved). */
function replaced(block: ShellBlock): string {
  let script = block.script;
  for (const [from, to] of block.marker.replacements) {
    if (!script.includes(from))
      throw new Error(`${block.path}:${block.line}: replace "${from}" matches nothing in the block`);
    script = script.split(from).join(to);
  }
  return script;
}

/**
 * What a block runs, as a key: two blocks with the same key run the same commands under the same
 * marker (the README repeats a docs page's recipe), so the test runs them once for both. Comments
 * at a line's end are left out (`  # text`, text without quotes, so no quoted `#` is cut) and so
 * are trailing blanks; everything else must match byte for byte, replacements applied.
 */
export function commandsKey(block: ShellBlock): string {
  const commands = replaced(block)
    .replace(/[ \t]+# [^'"\n]*$/gm, '')
    .replace(/[ \t]+$/gm, '');
  return JSON.stringify({ commands, marker: { ...block.marker, replacements: [] } });
}

/** The script the test runs: the block's replacements applied and its ports moved. */
export function scriptToRun(block: ShellBlock, freeBase: number | null): string {
  let script = replaced(block);
  if (block.marker.ports !== null && freeBase !== null) script = movePorts(script, block.marker.ports, freeBase);
  return failFastWaits(script);
}

/**
 * The recipes wait for a server they started in the background with `until curl …; do sleep S;
 * done`; a reader sees the server's error and presses Ctrl-C. Run here, a server that died (a port
 * taken) left the loop spinning until the block's timeout, 600 s. Each such loop also ends the
 * block (status 97) once no background job is running.
 */
export function failFastWaits(script: string): string {
  return script.replace(
    /^(\s*until curl [^;\n]*; do )(sleep [\d.]+; done)$/gm,
    (_whole, head: string, tail: string) =>
      `${head}[ -n "$(jobs -r)" ] || { echo 'the background server exited before it answered' >&2; exit 97; }; ${tail}`,
  );
}
