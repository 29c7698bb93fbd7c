import { lookup } from 'node:dns';
import { BlockList, isIP, LookupFunction } from 'node:net';

/** Where a webhook may not point unless WEBHOOK_ALLOW_PRIVATE_TARGETS: loopback, private, link-local and other non-public ranges. */
const NON_PUBLIC = new BlockList();
for (const cidr of [
  '0.0.0.0/8', // "this" network
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, cloud metadata
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
]) {
  const [network, prefix] = cidr.split('/');
  NON_PUBLIC.addSubnet(network, Number(prefix), 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, and the deprecated IPv4-compatible forms (`::7f00:1` is 127.0.0.1)
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT): `::ffff:0:7f00:1`
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['100::', 64],
  ['2001::', 32], // Teredo: the client's IPv4 address, obfuscated, reached through a relay
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4: an IPv4 address in bits 16 to 48, reached through a relay
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether an IP address is publicly routable. IPv6 forms that carry an IPv4 address the connection goes
 * to are judged by that address: IPv4-mapped (`::ffff:a.b.c.d`) and the NAT64 well-known prefix
 * (`64:ff9b::a.b.c.d`, what DNS64 answers for every IPv4-only host on an IPv6-only network). The other
 * forms that embed one (IPv4-compatible, IPv4-translated, 6to4, Teredo) are obsolete or relayed: refused
 * whole, whatever they embed.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = ipv6Groups(address).map((group) => group.toString(16));
  if (CARRYING_IPV4.includes(groups.slice(0, 6).join(':'))) return !NON_PUBLIC.check(ipv4Of(groups[6], groups[7]), 'ipv4');
  return !NON_PUBLIC.check(groups.join(':'), 'ipv6');
}

/** The /96 prefixes whose last 32 bits are the IPv4 address connected to: IPv4-mapped and NAT64's well-known prefix. */
const CARRYING_IPV4 = ['0:0:0:0:0:ffff', '64:ff9b:0:0:0:0'];

/** The eight 16-bit groups of an IPv6 address (`isIP` said it is one): `::` expanded, a dotted IPv4 tail as two groups, a zone dropped. */
function ipv6Groups(address: string): number[] {
  const text = address.replace(/%.*$/, '').replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const [head, tail] = text.split('::');
  const groups = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  if (tail === undefined) return groups(head);
  const [before, after] = [groups(head), groups(tail)];
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const ipv4Of = (high: string, low: string): string => [parseInt(high, 16), parseInt(low, 16)].flatMap((group) => [group >> 8, group & 255]).join('.');

const resolveAll = (host: string): Promise<string[]> =>
  new Promise((resolve, reject) => lookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses.map((entry) => entry.address)))));

/** The host of a URL without the brackets of an IPv6 literal. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why a URL may not be a webhook's target, or null when it may: https only (http too when private
 * targets are allowed), no credentials in it, and a host that resolves, to public addresses only unless
 * allowed. Checked at registration; the sender checks the addresses again on every delivery.
 */
export async function targetProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'url must use https';
  if (url.username || url.password) return 'url must not carry credentials';
  if (allowPrivate) return null;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolveAll(host);
  } catch {
    return 'url host does not resolve';
  }
  if (addresses.length === 0) return 'url host does not resolve';
  if (!addresses.every(isPublicAddress)) return 'url host resolves to a loopback, private or link-local address';
  return null;
}

/** A refused connection target: the attempt fails without a request. */
export class BlockedTargetError extends Error {}

/**
 * The DNS lookup of a delivery's connection: resolves the host and refuses it when any address is not
 * public (unless allowed), so that the connection goes to an address checked just now (a name that
 * changed its answer since registration is caught here, and the checked address is the one connected to).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return (callback as any)(error);
      const refused = !allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address));
      if (refused || addresses.length === 0) {
        return (callback as any)(new BlockedTargetError(`${hostname} resolves to a loopback, private or link-local address`));
      }
      if ((options as { all?: boolean }).all) return (callback as any)(null, addresses);
      (callback as any)(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Whether a delivery may connect to a literal IP host (the lookup is skipped for those). */
export function literalHostRefused(url: URL, allowPrivate: boolean): boolean {
  const host = hostOf(url);
  return !allowPrivate && isIP(host) !== 0 && !isPublicAddress(host);
}
