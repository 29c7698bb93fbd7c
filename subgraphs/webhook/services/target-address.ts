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
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is publicly routable (IPv4-mapped and -compatible IPv6 addresses judged by their IPv4 part). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address) ?? /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (mapped) {
    const v4 = mapped.length === 2 ? mapped[1] : hexPairToIpv4(mapped[1], mapped[2]);
    return !NON_PUBLIC.check(v4, 'ipv4');
  }
  return !NON_PUBLIC.check(address, 'ipv6');
}

function hexPairToIpv4(high: string, low: string): string {
  const h = parseInt(high, 16);
  const l = parseInt(low, 16);
  return [h >> 8, h & 255, l >> 8, l & 255].join('.');
}

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
