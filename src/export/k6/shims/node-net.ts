/**
 * node:net inside the k6 bundle: the IP address tests afp's domain rules use (k6 has no node:*
 * modules; k6-bundle.ts maps it here). Same answers as node for dotted-quad IPv4 and RFC 4291
 * IPv6 text (with an optional embedded IPv4 tail and a zone suffix).
 */
const IPV4_PART = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${IPV4_PART}(?:\\.${IPV4_PART}){3}$`);
const HEXTET = /^[0-9A-Fa-f]{1,4}$/;

export function isIPv4(text: string): boolean {
  return IPV4.test(text);
}

export function isIPv6(text: string): boolean {
  const address = text.split('%')[0] ?? '';
  if (text.includes('%') && text.endsWith('%')) return false;
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const groups = halves.map((half) => (half === '' ? [] : half.split(':')));
  const all = groups.flat();
  const last = all[all.length - 1];
  const tailIsV4 = last !== undefined && last.includes('.');
  if (tailIsV4 && !isIPv4(last)) return false;
  const hextets = tailIsV4 ? all.slice(0, -1) : all;
  if (!hextets.every((group) => HEXTET.test(group))) return false;
  const width = hextets.length + (tailIsV4 ? 2 : 0);
  return halves.length === 2 ? width <= 7 : width === 8;
}

export function isIP(text: string): 0 | 4 | 6 {
  return isIPv4(text) ? 4 : isIPv6(text) ? 6 : 0;
}
