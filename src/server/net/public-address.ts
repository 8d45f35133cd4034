import ipaddr from 'ipaddr.js'

/**
 * Which addresses and URLs a server-side fetch of a user-given URL may reach (decision 22).
 * Pure: no DNS, no sockets. public-request.ts applies it to every address a host name resolves
 * to and to every redirect hop.
 */

/** Ports a user-given URL may name; an allow-listed test host may use any. */
export const allowedPorts: ReadonlySet<number> = new Set([80, 443])

/** IANA's global unicast block: every other IPv6 block is local, special or unassigned. */
const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3')
/** RFC 6052's well-known NAT64 prefix; DNS64 resolvers write v4-only hosts into it. */
const nat64WellKnown = ipaddr.IPv6.parseCIDR('64:ff9b::/96')

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])
}

function v4Reason(address: ipaddr.IPv4): string | null {
  const range = address.range()
  // Everything ipaddr.js names (private, loopback, linkLocal, carrierGradeNat, reserved,
  // broadcast, multicast, unspecified, benchmarking, as112, amt) is refused: an image host or a
  // webhook receiver has no reason to sit in any of them.
  return range === 'unicast' ? null : range
}

function v6Reason(address: ipaddr.IPv6): string | null {
  const range = address.range()
  const parts = address.parts
  // Forms that carry an IPv4 address: judged by that address, since it is where the packets go.
  if (range === 'ipv4Mapped' || range === 'rfc6145' || address.match(nat64WellKnown)) {
    const reason = v4Reason(v4FromParts(parts[6] ?? 0, parts[7] ?? 0))
    return reason && `${range}:${reason}`
  }
  if (range === '6to4') {
    const reason = v4Reason(v4FromParts(parts[1] ?? 0, parts[2] ?? 0))
    return reason && `6to4:${reason}`
  }
  // Outside 2000::/3 lie loopback, unspecified, the deprecated IPv4-compatible ::a.b.c.d,
  // unique-local fc00::/7, link-local fe80::/10, site-local, multicast, discard and segment
  // routing; ipaddr.js calls some of them "unicast", so the block is checked on its own.
  if (!address.match(globalUnicast)) return range === 'unicast' ? 'notGlobalUnicast' : range
  // Inside it, Teredo (its relays are gone; the client address is obscured), the NAT64
  // local-use prefix 64:ff9b:1::/48, documentation, benchmarking, ORCHID and other special blocks.
  return range === 'unicast' ? null : range
}

/**
 * Why an IP address is not a public unicast address (the range's name, for the log), or null
 * when it is one. Something that is not an IP address at all is refused too.
 */
export function nonPublicReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address)
  } catch {
    return 'notAnAddress'
  }
  return parsed.kind() === 'ipv4' ? v4Reason(parsed as ipaddr.IPv4) : v6Reason(parsed as ipaddr.IPv6)
}

/** The host of a URL as a socket wants it: IPv6 literals without their brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '')
}

/** The port a URL connects to, its scheme's default when none is written. */
export function effectivePort(url: URL): number {
  if (url.port) return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}

/**
 * This machine's names as allow-list entries (WEBHOOKS_ALLOW_LOOPBACK, development only): the
 * loopback literals and `localhost`, on any port. Never a private range beyond them.
 */
export const loopbackHosts: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/**
 * Whether an allow-list entry (FETCH_ALLOW_PRIVATE_HOSTS: `host` or `host:port`, lower case,
 * IPv6 in brackets) covers this URL. A bare host covers every port of it.
 */
export function isAllowListed(url: URL, allowList: readonly string[]): boolean {
  if (allowList.length === 0) return false
  const host = url.hostname.toLowerCase()
  const hostAndPort = `${host}:${effectivePort(url)}`
  return allowList.some((entry) => entry === host || entry === hostAndPort)
}
