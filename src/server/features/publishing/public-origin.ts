import { isIP } from 'node:net'
import type { Config } from '#server/config.ts'
import { bareHostname, nonPublicReason } from '#server/net/public-address.ts'
import { AppError, type ErrorCode } from '#shared/errors.ts'

// Marketplaces download a listing's images from the URLs they are sent, from their own servers on
// the internet, and the URLs must be public https (Trendyol's createProducts asks for https image
// URLs; spec/publishing.md, "Common shape"). So an image is only worth publishing when the origin it is served under is a
// public https origin; otherwise the listing would be rejected minutes later for an image the
// marketplace could not fetch. This is decided from the configured origin alone (no DNS lookup:
// what matters is whether the internet can resolve it, which this machine's resolver cannot tell).

export type PublicOriginProblem = Extract<
  ErrorCode,
  'PUBLIC_URL_NOT_HTTPS' | 'PUBLIC_URL_LOOPBACK' | 'PUBLIC_URL_PRIVATE' | 'PUBLIC_URL_NOT_PUBLIC_NAME'
>

/**
 * Last labels no public DNS answers for: RFC 6761/6762 special-use names (local, localhost,
 * test, invalid, example, onion), RFC 8375's home.arpa, ICANN's reserved .internal, and the
 * private suffixes routers and company networks hand out by habit.
 */
const nonPublicSuffixes: readonly string[] = [
  'local',
  'localdomain',
  'internal',
  'intranet',
  'private',
  'lan',
  'home',
  'corp',
  'test',
  'invalid',
  'example',
  'onion',
  'alt',
  'home.arpa',
]

/** Why marketplaces could not fetch images under `origin`, or null when it is a public https origin. */
export function originProblem(origin: string): PublicOriginProblem | null {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return 'PUBLIC_URL_NOT_HTTPS'
  }
  if (url.protocol !== 'https:') return 'PUBLIC_URL_NOT_HTTPS'
  const host = bareHostname(url).toLowerCase().replace(/\.$/, '')
  if (isIP(host) !== 0) {
    const reason = nonPublicReason(host)
    if (reason === null) return null
    // An IPv4-mapped or NAT64 form is judged by the address inside ("ipv4Mapped:loopback").
    return reason.endsWith('loopback') ? 'PUBLIC_URL_LOOPBACK' : 'PUBLIC_URL_PRIVATE'
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return 'PUBLIC_URL_LOOPBACK'
  // A single label ("vitrin", "nas") resolves only through a local search domain.
  if (!host.includes('.')) return 'PUBLIC_URL_NOT_PUBLIC_NAME'
  if (nonPublicSuffixes.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) {
    return 'PUBLIC_URL_NOT_PUBLIC_NAME'
  }
  return null
}

export type OriginConfig = Pick<Config, 'env' | 'enableTestHooks' | 'publicUrl' | 'storage'>

/** The origin published images are linked under: the bucket's public URL when set, else PUBLIC_URL. */
export function mediaOrigin(config: Pick<Config, 'publicUrl' | 'storage'>): {
  setting: 'PUBLIC_URL' | 'S3_PUBLIC_URL'
  origin: string
} {
  const bucketUrl = config.storage.s3?.publicUrl
  return bucketUrl
    ? { setting: 'S3_PUBLIC_URL', origin: bucketUrl }
    : { setting: 'PUBLIC_URL', origin: config.publicUrl }
}

/**
 * Tests and the end-to-end run (NODE_ENV=test, or the test hooks, which production refuses): the
 * marketplaces are local fakes that may fetch images over http from 127.0.0.1.
 */
export function isUnderTest(config: Pick<Config, 'env' | 'enableTestHooks'>): boolean {
  return config.env === 'test' || config.enableTestHooks
}

/**
 * Why publishing must refuse on this server (null: it may publish). Under test (NODE_ENV=test,
 * or the test hooks of the end-to-end run, which production refuses) any origin is allowed, so
 * the fake marketplaces can fetch from http://127.0.0.1.
 */
export function publicOriginProblem(config: OriginConfig): PublicOriginProblem | null {
  if (isUnderTest(config)) return null
  return originProblem(mediaOrigin(config).origin)
}

/** publicOriginProblem as the error publishing throws, its message naming the setting and value. */
export function publicOriginError(config: OriginConfig): AppError | null {
  const problem = publicOriginProblem(config)
  if (!problem) return null
  const { setting, origin } = mediaOrigin(config)
  const why: Record<PublicOriginProblem, string> = {
    PUBLIC_URL_NOT_HTTPS: 'is not https, and marketplaces fetch images over https only',
    PUBLIC_URL_LOOPBACK: "is this machine's own address, which no marketplace can reach",
    PUBLIC_URL_PRIVATE: 'is a private or local network address, which no marketplace can reach',
    PUBLIC_URL_NOT_PUBLIC_NAME: 'is a name only a local network resolves, which no marketplace can find',
  }
  return new AppError(
    problem,
    `${setting} (${origin}) ${why[problem]}: set it to this server's public https:// origin before publishing`,
  )
}
