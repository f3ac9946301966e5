// redirect-policy.ts: same origin only, at most 5, never to a private or metadata address.
import { expect, test } from 'vitest';
import { RefusedAnswerError } from '../../src/client/answer-limits.ts';
import { followedRedirect, isForbiddenHost, REDIRECTS_MAX } from '../../src/client/redirect-policy.ts';

const target = new URL('https://api.example.test/v1');

test('link-local, private, carrier-grade NAT, unspecified and metadata addresses are forbidden; public ones and loopback are not', () => {
  for (const host of [
    '169.254.169.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '[fe80::1]',
    '[fd00::1]',
    '[::]',
    '[::ffff:169.254.169.254]',
    'metadata.google.internal',
    'METADATA.GOOGLE.INTERNAL.',
  ])
    expect(isForbiddenHost(host), host).toBe(true);
  for (const host of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '127.0.0.1', '[::1]', 'api.example.test'])
    expect(isForbiddenHost(host), host).toBe(false);
});

test('a same-origin Location is followed up to 5 times; another origin, a metadata address or a 6th is refused naming the Location', () => {
  const from = new URL('https://api.example.test/v1/a');
  expect(followedRedirect({ target, from, status: 302, location: '/v1/b', followed: 0 }).href).toBe(
    'https://api.example.test/v1/b',
  );
  const refused = (location: string, followed = 0): string => {
    try {
      followedRedirect({ target, from, status: 307, location, followed });
      return 'followed';
    } catch (error) {
      expect(error).toBeInstanceOf(RefusedAnswerError);
      return (error as Error).message;
    }
  };
  expect(refused('http://api.example.test/v1/b')).toContain('another origin');
  expect(refused('https://api.example.test:8443/v1/b')).toContain('another origin');
  expect(refused('https://evil.example.test/')).toContain('"https://evil.example.test/": another origin');
  expect(refused('http://169.254.169.254/latest/meta-data/')).toContain('link-local, private or metadata address');
  expect(refused('/v1/c', REDIRECTS_MAX)).toContain('more than 5 redirects');
});
