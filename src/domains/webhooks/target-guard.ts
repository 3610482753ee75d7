import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ValidationError } from '../../errors/app-error';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (DNS, /etc/hosts); tests substitute it. */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** A host name that takes longer than this to resolve counts as not resolving. */
export const RESOLVE_TIMEOUT_MS = 5_000;

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Why a webhook target is refused. */
export class UnsafeTargetError extends Error {}

/**
 * Syntax of a webhook URL: absolute HTTPS, a host, no user name or password. 400 naming `field`
 * otherwise. Returns the parsed URL.
 */
export function parseWebhookUrl(field: string, value: string): URL {
  const url = URL.canParse(value.trim()) ? new URL(value.trim()) : null;
  if (!url) throw new ValidationError(field, 'must be an absolute https:// URL');
  if (url.protocol !== 'https:') throw new ValidationError(field, 'must use https://');
  if (url.username || url.password) throw new ValidationError(field, 'must not contain a user name or password');
  if (!url.hostname) throw new ValidationError(field, 'must name a host');
  return url;
}

/** The only IPv6 block handed out as global unicast (so `::a00:1`, IPv4-compatible, is not public). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Only global unicast addresses are public: ipaddr.js's `unicast` range, and for IPv6 inside
 * 2000::/3. IPv4-mapped IPv6 is judged as the IPv4 it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6 as [ipaddr.IPv6, number]);
}

/** The host of a URL without IPv6 brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Resolves the URL's host and checks every address is public (unless the host is listed in
 * WEBHOOK_ALLOWED_PRIVATE_HOSTS). Returns the address to connect to, so the connection goes where
 * the check looked, whatever DNS answers a moment later. Throws UnsafeTargetError. For a host
 * name the message does not tell "no address" from "a private address", nor name the address:
 * the answer must not map the service's internal DNS for whoever registers URLs.
 */
export async function vetTarget(url: URL, resolve: HostResolver, allowedPrivateHosts: readonly string[]): Promise<ResolvedAddress> {
  const host = bareHost(url).toLowerCase();
  const exempt = allowedPrivateHosts.includes(host);
  if (ipaddr.isValid(host)) {
    if (!exempt && !isPublicAddress(host)) throw new UnsafeTargetError(`${host} is not a public address`);
    return { address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 };
  }
  const refused = new UnsafeTargetError(`host ${host} must resolve only to public addresses`);
  let addresses: ResolvedAddress[];
  try {
    addresses = await withDeadline(resolve(host), RESOLVE_TIMEOUT_MS);
  } catch {
    throw refused;
  }
  if (addresses.length === 0 || (!exempt && addresses.some((a) => !isPublicAddress(a.address)))) throw refused;
  // IPv4 first: a dual-stack name is reached the way most receivers listen.
  return [...addresses].sort((a, b) => a.family - b.family)[0];
}

/** A `lookup` for http(s).request that answers the vetted address whatever the host name. */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}
