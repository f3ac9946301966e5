// A stand-in a team shares (issue 71, part 5), its two rules without sockets: who may use the admin
// doors (src/server/admin-access.ts: loopback as before; beyond loopback only with the serve's
// admin token, 401 without it or with a wrong one, 403 from a serve that has none) and what URLs it
// announces (src/server/announced-urls.ts: --public-url, per service or for all with the port
// offsets kept, else the caller's Host). The sockets and a second network are in team-serve.test.ts.
import { describe, expect, it } from 'vitest';
import { adminRefusal, adminTokenProblem } from '../../src/server/admin-access.ts';
import { announcedUrls, parsePublicUrl } from '../../src/server/announced-urls.ts';
import type { EdgeRequest } from '../../src/http/server.ts';
import type { Mount } from '../../src/http/route.ts';

const TOKEN = 'team-token-0123456789';
const MOUNTS: Mount[] = ['api', 'faucet', 'escrow', 'trading', 'domains', 'wallet', 'casino'];

function request(peer: string, headers: Record<string, string> = {}): EdgeRequest {
  return {
    mount: 'api',
    method: 'GET',
    path: '/_afp/mounts',
    query: {},
    headers,
    ip: peer,
    peer,
    forwarding: false,
    sentForwarding:
      headers['x-forwarded-for'] === undefined
        ? null
        : { xForwardedFor: headers['x-forwarded-for'], xRealIp: undefined, forwarded: undefined },
  };
}

describe('who may use the admin doors', () => {
  it('a loopback caller needs no token, with or without one configured', () => {
    expect(adminRefusal(request('127.0.0.1'), null)).toBeNull();
    expect(adminRefusal(request('::1'), TOKEN)).toBeNull();
  });

  it('beyond loopback: 403 from a serve with no token, 401 without the token, in with it', () => {
    expect(adminRefusal(request('198.18.0.2'), null)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const missing = adminRefusal(request('198.18.0.2'), TOKEN);
    expect(missing).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(missing?.message).toContain('x-afp-admin-token');
    expect(missing?.message).toContain('peer 198.18.0.2');
    expect(adminRefusal(request('198.18.0.2', { 'x-afp-admin-token': TOKEN }), TOKEN)).toBeNull();
  });

  it('a loopback peer forwarding for an address beyond it is beyond loopback', () => {
    const forwarded = request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' });
    expect(adminRefusal(forwarded, null)).toMatchObject({ status: 403 });
    expect(adminRefusal(forwarded, TOKEN)).toMatchObject({ status: 401 });
    expect(
      adminRefusal({ ...forwarded, headers: { ...forwarded.headers, 'x-afp-admin-token': TOKEN } }, TOKEN),
    ).toBeNull();
  });

  it('a wrong token is 401 from any peer; a serve without a token ignores the header', () => {
    for (const peer of ['127.0.0.1', '198.18.0.2'])
      expect(adminRefusal(request(peer, { 'x-afp-admin-token': `${TOKEN}x` }), TOKEN)).toMatchObject({ status: 401 });
    expect(adminRefusal(request('127.0.0.1', { 'x-afp-admin-token': TOKEN }), null)).toBeNull();
    expect(adminRefusal(request('198.18.0.2', { 'x-afp-admin-token': TOKEN }), null)).toMatchObject({ status: 403 });
  });

  it('a token is 16 to 256 printable characters', () => {
    expect(adminTokenProblem(TOKEN)).toBeNull();
    expect(adminTokenProblem('short')).toContain('16 to 256');
    expect(adminTokenProblem('a'.repeat(257))).toContain('16 to 256');
    expect(adminTokenProblem('has a space inside it')).toContain('printable');
  });
});

describe('the URLs a serve announces', () => {
  const listening = {
    api: 'http://127.0.0.1:8700',
    faucet: 'http://127.0.0.1:8701',
    casino: 'http://127.0.0.1:8706',
  };

  it('without --public-url: the listening URLs at start, the caller Host in /_afp/mounts (its port dropped)', () => {
    expect(announcedUrls(listening, undefined)).toEqual(listening);
    expect(announcedUrls(listening, undefined, '10.1.2.3:8700')).toEqual({
      api: 'http://10.1.2.3:8700',
      faucet: 'http://10.1.2.3:8701',
      casino: 'http://10.1.2.3:8706',
    });
    expect(announcedUrls(listening, undefined, '[fd00::5]:8700').faucet).toBe('http://[fd00::5]:8701');
    expect(announcedUrls(listening, undefined, 'afp.team.test').api).toBe('http://afp.team.test:8700');
  });

  it('a Host that is no plain name or address leaves the listening URL', () => {
    for (const host of ['', 'evil.test/path', 'a b', 'x'.repeat(300), 'user@host:1'])
      expect(announcedUrls(listening, undefined, host)).toEqual(listening);
  });

  it('--public-url URL: its scheme and host on every mount, each keeping its offset; a per-service one wins', () => {
    const all = parsePublicUrl('https://afp.team.test:9000/', MOUNTS);
    const casino = parsePublicUrl('casino=https://casino.team.test', MOUNTS);
    if ('error' in all || 'error' in casino) throw new Error('parse failed');
    expect(all).toEqual({ mount: null, url: 'https://afp.team.test:9000' });
    const urls = announcedUrls(listening, { all: all.url, perMount: { casino: casino.url } }, 'ignored.test');
    expect(urls).toEqual({
      api: 'https://afp.team.test:9000',
      faucet: 'https://afp.team.test:9001',
      casino: 'https://casino.team.test',
    });
    expect(announcedUrls(listening, { all: 'https://afp.team.test/stand-in', perMount: {} }).faucet).toBe(
      'https://afp.team.test:444/stand-in',
    );
  });

  it('--public-url URL over ephemeral ports (`--port 0`): where the offset gives no port, the mount keeps its own', () => {
    const scattered = {
      api: 'http://127.0.0.1:41000',
      faucet: 'http://127.0.0.1:32000',
      casino: 'http://127.0.0.1:41005',
    };
    const urls = announcedUrls(scattered, { all: 'https://afp.team.test:9000', perMount: {} });
    // 9000 + (32000 − 41000) is no port: the faucet's own 32000 on the public host.
    expect(urls).toEqual({
      api: 'https://afp.team.test:9000',
      faucet: 'https://afp.team.test:32000',
      casino: 'https://afp.team.test:9005',
    });
  });

  it('bad --public-url values are refused with the reason', () => {
    expect(parsePublicUrl('ftp://x.test', MOUNTS)).toEqual({ error: expect.stringContaining('http or https') });
    expect(parsePublicUrl('bank=http://x.test', MOUNTS)).toEqual({ error: expect.stringContaining('no such service') });
    expect(parsePublicUrl('http://user:pw@x.test', MOUNTS)).toEqual({ error: expect.stringContaining('no user') });
    expect(parsePublicUrl('http://x.test/?a=1', MOUNTS)).toEqual({ error: expect.stringContaining('no query') });
    expect(parsePublicUrl('not a url', MOUNTS)).toEqual({ error: expect.stringContaining('not a URL') });
  });
});
