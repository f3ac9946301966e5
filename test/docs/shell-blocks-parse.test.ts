// The documentation's block markers are read strictly (a misspelt directive fails rather than
// silently changing what runs), and a block's ports and sizes are rewritten exactly as marked.
import { describe, expect, it } from 'vitest';
import { commandsKey, failFastWaits, movePorts, parseMarker, scriptToRun, shellBlocks } from './shell-blocks.ts';

const PAGE = [
  'Intro.',
  '<!-- test: ports: 8700; replace: --runs 50 => --runs 3; exit: 3; env: GITHUB_RUN_NUMBER=7 -->',
  '```sh',
  'npx afp serve --port 8700 &',
  'curl http://127.0.0.1:8706/health http://127.0.0.1:8708/health',
  'npx afp check --runs 50',
  '```',
  '   <!-- test: skip: needs a real deployment -->',
  '   ```bash',
  '   npx afp target probe https://example.com',
  '   ```',
  '```console',
  '$ npx afp --version',
  'afp 0.1.0',
  '```',
  '```yaml',
  'name: not-a-shell-block',
  '```',
].join('\n');

describe('shell blocks', () => {
  const blocks = shellBlocks('page.md', PAGE);

  it('finds sh, bash and console blocks (indented ones too) with their markers, and nothing else', () => {
    expect(blocks.map((block) => block.line)).toEqual([3, 9, 12]);
    expect(blocks[0]?.marker).toMatchObject({
      ports: 8700,
      exit: 3,
      replacements: [['--runs 50', '--runs 3']],
      env: { GITHUB_RUN_NUMBER: '7' },
    });
    expect(blocks[1]?.marker.skip).toBe('needs a real deployment');
    expect(blocks[1]?.script).toBe('npx afp target probe https://example.com');
    expect(blocks[2]?.script).toBe('npx afp --version');
  });

  it('moves the marked span of ports only, and applies the replacements', () => {
    const first = blocks[0];
    if (first === undefined) throw new Error('no block');
    expect(scriptToRun(first, 40000)).toBe(
      [
        'npx afp serve --port 40000 &',
        'curl http://127.0.0.1:40006/health http://127.0.0.1:8708/health',
        'npx afp check --runs 3',
      ].join('\n'),
    );
    expect(movePorts('url: http://127.0.0.1:3007 and :3000', 3000, 5000)).toBe('url: http://127.0.0.1:5007 and :3000');
  });

  it('refuses an unknown directive and a replacement that matches nothing', () => {
    expect(() => parseMarker('port: 8700')).toThrow(/unknown test directive/);
    expect(() => parseMarker('exit: three')).toThrow(/unknown test directive/);
    expect(() => parseMarker('or-exit: 5')).toThrow(/unknown test directive/);
    expect(parseMarker('ports: 8700; or-exit: 5 when p(99)<200 failed').orExit).toEqual({
      status: 5,
      when: 'p(99)<200 failed',
    });
    const block = shellBlocks(
      'p.md',
      '<!-- test: replace: --bets 9 => --bets 1 -->\n```sh\nnpx afp audit house-edge\n```',
    )[0];
    if (block === undefined) throw new Error('no block');
    expect(() => scriptToRun(block, null)).toThrow(/matches nothing/);
  });

  it('keys two blocks alike only when their commands (end-of-line comments aside) and markers are', () => {
    const key = (marker: string, script: string): string => {
      const block = shellBlocks('p.md', `<!-- test: ${marker} -->\n\`\`\`sh\n${script}\n\`\`\``)[0];
      if (block === undefined) throw new Error('no block');
      return commandsKey(block);
    };
    const base = key(
      'exit: 3; replace: --runs 50 => --runs 3',
      'npx afp check --runs 50   # exit 3\nnpx afp run x.yaml',
    );
    expect(
      key('exit: 3; replace: --runs 9 => --runs 3', 'npx afp check --runs 9  # a shrunk sequence\nnpx afp run x.yaml'),
    ).toBe(base);
    expect(key('exit: 4; replace: --runs 50 => --runs 3', 'npx afp check --runs 50\nnpx afp run x.yaml')).not.toBe(
      base,
    );
    expect(key('exit: 3; replace: --runs 50 => --runs 3', 'npx afp check --runs 50\nnpx afp run y.yaml')).not.toBe(
      base,
    );
    expect(key('exit: 3', "echo 'a  # b'")).not.toBe(key('exit: 3', "echo 'a  # c'"));
  });

  it('ends a wait for a background server once no background job runs', () => {
    const waited = failFastWaits(
      'npx afp serve &\nuntil curl -sf http://127.0.0.1:8700/health >/dev/null; do sleep 0.2; done\nkill %1',
    );
    expect(waited.split('\n')[1]).toBe(
      `until curl -sf http://127.0.0.1:8700/health >/dev/null; do [ -n "$(jobs -r)" ] || { echo 'the background server exited before it answered' >&2; exit 97; }; sleep 0.2; done`,
    );
    expect(failFastWaits('curl -sf http://127.0.0.1:8700/health')).toBe('curl -sf http://127.0.0.1:8700/health');
  });
});
