import { describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { translateIn } from '#shared/i18n/locales/all.ts'
import { originProblem, publicOriginError, publicOriginProblem } from './public-origin.ts'

// Marketplaces download a listing's images from the internet over https, so publishing refuses a
// public origin they could not reach, with a code per reason; under test any origin is allowed.

function configWith(env: Record<string, string>) {
  return loadConfig({
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    NODE_ENV: 'production',
    ...env,
  })
}

describe('originProblem', () => {
  it.each([
    ['https://vitrin.example.com', null],
    ['https://vitrin.example.com:8443', null],
    ['https://magaza.com.tr', null],
    ['https://93.184.216.34', null],
    ['https://[2606:2800:220:1:248:1893:25c8:1946]', null],
    ['http://vitrin.example.com', 'PUBLIC_URL_NOT_HTTPS'],
    ['http://93.184.216.34', 'PUBLIC_URL_NOT_HTTPS'],
    ['https://localhost', 'PUBLIC_URL_LOOPBACK'],
    ['https://localhost:3000', 'PUBLIC_URL_LOOPBACK'],
    ['https://shop.localhost', 'PUBLIC_URL_LOOPBACK'],
    ['https://127.0.0.1', 'PUBLIC_URL_LOOPBACK'],
    ['https://127.1.2.3', 'PUBLIC_URL_LOOPBACK'],
    ['https://[::1]', 'PUBLIC_URL_LOOPBACK'],
    ['https://[::ffff:127.0.0.1]', 'PUBLIC_URL_LOOPBACK'],
    ['https://10.0.0.5', 'PUBLIC_URL_PRIVATE'],
    ['https://192.168.1.2', 'PUBLIC_URL_PRIVATE'],
    ['https://172.16.0.9', 'PUBLIC_URL_PRIVATE'],
    ['https://169.254.1.1', 'PUBLIC_URL_PRIVATE'],
    ['https://100.64.0.1', 'PUBLIC_URL_PRIVATE'],
    ['https://0.0.0.0', 'PUBLIC_URL_PRIVATE'],
    ['https://[fe80::1]', 'PUBLIC_URL_PRIVATE'],
    ['https://[fd00::1]', 'PUBLIC_URL_PRIVATE'],
    ['https://vitrin.local', 'PUBLIC_URL_NOT_PUBLIC_NAME'],
    ['https://vitrin.internal', 'PUBLIC_URL_NOT_PUBLIC_NAME'],
    ['https://shop.lan', 'PUBLIC_URL_NOT_PUBLIC_NAME'],
    ['https://nas.home.arpa', 'PUBLIC_URL_NOT_PUBLIC_NAME'],
    ['https://vitrin.test', 'PUBLIC_URL_NOT_PUBLIC_NAME'],
    ['https://vitrin', 'PUBLIC_URL_NOT_PUBLIC_NAME'],
    ['https://Vitrin.LOCAL.', 'PUBLIC_URL_NOT_PUBLIC_NAME'],
  ])('%s → %s', (origin, expected) => {
    expect(originProblem(origin)).toBe(expected)
  })
})

describe('publicOriginProblem', () => {
  it('judges PUBLIC_URL outside tests', () => {
    expect(publicOriginProblem(configWith({ PUBLIC_URL: 'https://vitrin.example.com' }))).toBeNull()
    expect(publicOriginProblem(configWith({ PUBLIC_URL: 'http://vitrin.example.com' }))).toBe(
      'PUBLIC_URL_NOT_HTTPS',
    )
    expect(
      publicOriginProblem(configWith({ NODE_ENV: 'development', PUBLIC_URL: 'http://127.0.0.1:3000' })),
    ).toBe('PUBLIC_URL_NOT_HTTPS')
    // The development default, http://localhost:<PORT>.
    expect(publicOriginProblem(configWith({ NODE_ENV: 'development' }))).toBe('PUBLIC_URL_NOT_HTTPS')
    expect(
      publicOriginProblem(configWith({ NODE_ENV: 'development', PUBLIC_URL: 'https://localhost:3000' })),
    ).toBe('PUBLIC_URL_LOOPBACK')
  })

  it('allows any origin under test: NODE_ENV=test, or the end-to-end run with its test hooks', () => {
    expect(
      publicOriginProblem(configWith({ NODE_ENV: 'test', PUBLIC_URL: 'http://127.0.0.1:4000' })),
    ).toBeNull()
    expect(
      publicOriginProblem(
        configWith({
          NODE_ENV: 'development',
          ENABLE_TEST_HOOKS: 'true',
          PUBLIC_URL: 'http://127.0.0.1:4000',
        }),
      ),
    ).toBeNull()
  })

  it("judges the bucket's public URL instead when images are linked there", () => {
    const s3 = {
      S3_BUCKET: 'vitrin-media',
      S3_ACCESS_KEY_ID: 'key-id',
      S3_SECRET_ACCESS_KEY: 'secret-key',
    }
    expect(
      publicOriginProblem(
        configWith({
          ...s3,
          PUBLIC_URL: 'https://vitrin.example.com',
          S3_PUBLIC_URL: 'http://minio.lan:9000',
        }),
      ),
    ).toBe('PUBLIC_URL_NOT_HTTPS')
    expect(
      publicOriginProblem(
        configWith({ ...s3, PUBLIC_URL: 'http://10.0.0.5', S3_PUBLIC_URL: 'https://media.example.com/' }),
      ),
    ).toBeNull()
  })

  it('refuses with an error naming the setting and its value, explained in both languages', () => {
    const error = publicOriginError(configWith({ PUBLIC_URL: 'https://192.168.1.2' }))
    expect(error?.code).toBe('PUBLIC_URL_PRIVATE')
    expect(error?.status).toBe(409)
    expect(error?.message).toContain('PUBLIC_URL (https://192.168.1.2)')
    expect(publicOriginError(configWith({ PUBLIC_URL: 'https://vitrin.example.com' }))).toBeNull()
    for (const code of [
      'PUBLIC_URL_NOT_HTTPS',
      'PUBLIC_URL_LOOPBACK',
      'PUBLIC_URL_PRIVATE',
      'PUBLIC_URL_NOT_PUBLIC_NAME',
    ] as const) {
      expect(translateIn('en', `errors.${code}`)).toContain('PUBLIC_URL')
      expect(translateIn('tr', `errors.${code}`)).toContain('PUBLIC_URL')
      expect(translateIn('tr', `errors.${code}`)).toContain('https://')
    }
  })
})
