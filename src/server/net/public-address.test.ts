import { describe, expect, it } from 'vitest'
import { effectivePort, isAllowListed, nonPublicReason } from './public-address.ts'

describe('nonPublicReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.251', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['fc12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['::ffff:127.0.0.1', 'ipv4Mapped:loopback'],
    ['::ffff:169.254.169.254', 'ipv4Mapped:linkLocal'],
    ['::ffff:10.0.0.1', 'ipv4Mapped:private'],
    ['::ffff:0:7f00:1', 'rfc6145:loopback'],
    ['64:ff9b::a00:1', 'rfc6052:private'],
    ['64:ff9b::7f00:1', 'rfc6052:loopback'],
    ['64:ff9b:1::808:808', 'rfc6052'],
    ['2002:7f00:1::1', '6to4:loopback'],
    ['2002:c0a8:101::', '6to4:private'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:db8::1', 'reserved'],
    // The deprecated IPv4-compatible form of 127.0.0.1: outside 2000::/3.
    ['::7f00:1', 'notGlobalUnicast'],
    ['100::1', 'discard'],
    ['not an address', 'notAnAddress'],
    // Short and hex IPv4 spellings, as inet_aton reads them (URL parsing rewrites them first anyway).
    ['127.1', 'loopback'],
    ['0x7f.1', 'loopback'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(nonPublicReason(address)).toBe(reason)
  })

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('accepts the public address %s', (address) => {
    expect(nonPublicReason(address)).toBeNull()
  })
})

describe('isAllowListed', () => {
  it('matches a bare host on any port, and host:port on that port only', () => {
    expect(isAllowListed(new URL('http://127.0.0.1:4100/a'), ['127.0.0.1'])).toBe(true)
    expect(isAllowListed(new URL('http://127.0.0.1:4100/a'), ['127.0.0.1:4100'])).toBe(true)
    expect(isAllowListed(new URL('http://127.0.0.1:4101/a'), ['127.0.0.1:4100'])).toBe(false)
    expect(isAllowListed(new URL('http://images.test/a'), ['images.test:80'])).toBe(true)
    expect(isAllowListed(new URL('http://[::1]:8080/'), ['[::1]'])).toBe(true)
    expect(isAllowListed(new URL('http://localhost/'), ['127.0.0.1'])).toBe(false)
    expect(isAllowListed(new URL('http://127.0.0.1/'), [])).toBe(false)
  })

  it('names the default port of each scheme', () => {
    expect(effectivePort(new URL('http://a.example/'))).toBe(80)
    expect(effectivePort(new URL('https://a.example/'))).toBe(443)
    expect(effectivePort(new URL('https://a.example:8443/'))).toBe(8443)
  })
})
