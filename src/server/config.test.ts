import { describe, expect, it } from 'vitest'
import { apiRateLimitDefaults } from '#shared/api-limits.ts'
import { adoptListeningPort, ConfigError, loadConfig, workerCapWarning } from './config.ts'

const secret = 'a'.repeat(32)

/** The problems loadConfig reports for this environment; fails the test if it is accepted. */
function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems
  }
  throw new Error('expected the configuration to be refused')
}

describe('loadConfig', () => {
  it('runs the embedded defaults with nothing set', () => {
    // toMatchObject: settings added later bring their own defaults and their own tests.
    expect(loadConfig({})).toMatchObject({
      env: 'development',
      host: '0.0.0.0',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: './data',
      databaseUrl: undefined,
      databasePoolMax: 10,
      appSecret: undefined,
      logLevel: 'info',
      smtpUrl: undefined,
      mailFrom: 'Vitrin <no-reply@vitrin.localhost>',
      supportEmail: 'support@vitrin.localhost',
      supportLanguage: 'en',
      trustProxy: false,
      webDistDir: './dist/web',
      shutdownGraceSeconds: 10,
      enableTestHooks: false,
    })
  })

  it('treats empty and blank strings as unset', () => {
    const config = loadConfig({
      PORT: '',
      DATABASE_URL: '',
      APP_SECRET: '  ',
      LOG_LEVEL: '',
      SMTP_URL: '',
      SUPPORT_EMAIL: ' ',
      TRUST_PROXY: '',
    })
    expect(config).toEqual(loadConfig({}))
  })

  it('ignores keys it does not know', () => {
    expect(loadConfig({ SOMETHING_ELSE: 'x', PATH: '/bin' })).toEqual(loadConfig({}))
  })

  it('reads the values it is given, trimmed', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: ' 8080 ',
      PUBLIC_URL: 'https://vitrin.example.com///',
      DATABASE_URL: 'postgresql://u:p@db:5432/vitrin',
      DATABASE_POOL_MAX: '25',
      APP_SECRET: secret,
      LOG_LEVEL: 'debug',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      SUPPORT_EMAIL: 'help@vitrin.example.com',
      SUPPORT_LANGUAGE: 'tr',
      SHUTDOWN_GRACE_SECONDS: '2.5',
    })
    expect(config).toMatchObject({
      env: 'production',
      port: 8080,
      publicUrl: 'https://vitrin.example.com',
      databaseUrl: 'postgresql://u:p@db:5432/vitrin',
      databasePoolMax: 25,
      appSecret: secret,
      logLevel: 'debug',
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      supportEmail: 'help@vitrin.example.com',
      supportLanguage: 'tr',
      shutdownGraceSeconds: 2.5,
    })
  })

  it('reports every bad value at once, each naming its key', () => {
    const problems = problemsOf({ PORT: 'abc', LOG_LEVEL: 'loud', SMTP_URL: 'http://x' })
    expect(problems).toHaveLength(3)
    expect(problems.some((p) => p.startsWith('PORT:'))).toBe(true)
    expect(problems.some((p) => p.startsWith('LOG_LEVEL:'))).toBe(true)
    expect(problems.some((p) => p.startsWith('SMTP_URL:'))).toBe(true)
  })

  it('reports a rule between settings together with the other bad values', () => {
    const problems = problemsOf({ PORT: 'abc', DATABASE_URL: 'postgres://db/vitrin' })
    expect(problems).toHaveLength(2)
    expect(problems.some((p) => p.startsWith('PORT:'))).toBe(true)
    expect(problems.some((p) => p.startsWith('APP_SECRET:'))).toBe(true)
  })

  it('puts every problem in the error message', () => {
    expect(() => loadConfig({ PORT: '70000', SUPPORT_EMAIL: 'nope', SUPPORT_LANGUAGE: 'de' })).toThrow(
      /PORT[\s\S]*SUPPORT_EMAIL[\s\S]*SUPPORT_LANGUAGE/,
    )
  })

  it('refuses malformed URLs and out-of-range numbers', () => {
    expect(problemsOf({ DATABASE_URL: 'mysql://db/vitrin', APP_SECRET: secret })[0]).toMatch(/^DATABASE_URL:/)
    expect(problemsOf({ PUBLIC_URL: 'not a url' })[0]).toMatch(/^PUBLIC_URL:/)
    expect(problemsOf({ PORT: '-1' })[0]).toMatch(/^PORT:/)
    expect(problemsOf({ PORT: '3000.5' })[0]).toMatch(/^PORT:/)
    expect(problemsOf({ DATABASE_POOL_MAX: '0' })[0]).toMatch(/^DATABASE_POOL_MAX:/)
    expect(problemsOf({ NODE_ENV: 'staging' })[0]).toMatch(/^NODE_ENV:/)
  })

  it('refuses DATABASE_URL without APP_SECRET, and accepts it with one', () => {
    const problems = problemsOf({ DATABASE_URL: 'postgres://db/vitrin' })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^APP_SECRET:/)
    expect(loadConfig({ DATABASE_URL: 'postgres://db/vitrin', APP_SECRET: secret }).databaseUrl).toBe(
      'postgres://db/vitrin',
    )
  })

  it('has no vision model unless VISION_MODEL is set, and then needs the OpenAI-compatible key', () => {
    expect(loadConfig({}).providers.openai.visionModel).toBeUndefined()
    expect(problemsOf({ VISION_MODEL: 'gpt-4o-mini' })).toEqual([
      expect.stringMatching(/^OPENAI_API_KEY: is required with VISION_MODEL/),
    ])
    // The SEO copy may stay offline: the vision model uses the same base URL and key on its own.
    const config = loadConfig({
      VISION_MODEL: 'qwen2.5vl:7b',
      OPENAI_API_KEY: 'ollama',
      OPENAI_BASE_URL: 'http://localhost:11434/v1/',
    })
    expect(config.providers.seo).toBe('offline')
    expect(config.providers.openai).toMatchObject({
      visionModel: 'qwen2.5vl:7b',
      baseUrl: 'http://localhost:11434/v1',
      apiKey: 'ollama',
    })
  })

  it('refuses an APP_SECRET shorter than 32 characters', () => {
    expect(problemsOf({ APP_SECRET: 'a'.repeat(31) })).toEqual([expect.stringMatching(/^APP_SECRET:.*32/)])
    expect(loadConfig({ APP_SECRET: secret }).appSecret).toBe(secret)
  })

  it('refuses to start in production without PUBLIC_URL, and defaults it to this machine elsewhere', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      expect.stringMatching(/^PUBLIC_URL: is required in production/),
    ])
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://v.example/' }).publicUrl).toBe(
      'https://v.example',
    )
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080')
    expect(loadConfig({ HOST: '::', PORT: '8080' }).publicUrl).toBe('http://localhost:8080')
    expect(loadConfig({ HOST: '127.0.0.1', NODE_ENV: 'test' }).publicUrl).toBe('http://127.0.0.1:3000')
    expect(loadConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:3000')
  })

  it('names the real port in the default PUBLIC_URL once a PORT=0 server listens', () => {
    const picked = loadConfig({ HOST: '127.0.0.1', PORT: '0' })
    adoptListeningPort(picked, 43210)
    expect(picked.publicUrl).toBe('http://127.0.0.1:43210')
    const configured = loadConfig({ PORT: '0', PUBLIC_URL: 'https://v.example' })
    adoptListeningPort(configured, 43210)
    expect(configured.publicUrl).toBe('https://v.example')
    const fixed = loadConfig({ PORT: '3000' })
    adoptListeningPort(fixed, 43210)
    expect(fixed.publicUrl).toBe('http://localhost:3000')
  })

  it('refuses test hooks in production, and allows them elsewhere', () => {
    expect(
      problemsOf({ ENABLE_TEST_HOOKS: 'true', NODE_ENV: 'production', PUBLIC_URL: 'https://v.example' }),
    ).toEqual([expect.stringMatching(/^ENABLE_TEST_HOOKS:/)])
    expect(loadConfig({ ENABLE_TEST_HOOKS: 'true', NODE_ENV: 'test' }).enableTestHooks).toBe(true)
    expect(
      loadConfig({ ENABLE_TEST_HOOKS: 'false', NODE_ENV: 'production', PUBLIC_URL: 'https://v.example' })
        .enableTestHooks,
    ).toBe(false)
  })

  it('reads FETCH_ALLOW_PRIVATE_HOSTS as a list, off by default and refused in production', () => {
    expect(loadConfig({}).fetchAllowPrivateHosts).toEqual([])
    expect(
      loadConfig({ FETCH_ALLOW_PRIVATE_HOSTS: ' 127.0.0.1:4100, Images.Test ,[::1]', NODE_ENV: 'test' })
        .fetchAllowPrivateHosts,
    ).toEqual(['127.0.0.1:4100', 'images.test', '[::1]'])
    expect(problemsOf({ FETCH_ALLOW_PRIVATE_HOSTS: 'http://127.0.0.1/' })).toEqual([
      expect.stringMatching(/^FETCH_ALLOW_PRIVATE_HOSTS\./),
    ])
    expect(
      problemsOf({
        FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://v.example',
      }),
    ).toEqual([expect.stringMatching(/^FETCH_ALLOW_PRIVATE_HOSTS: must not be set in production/)])
  })

  it('lets webhooks reach loopback hosts only with WEBHOOKS_ALLOW_LOOPBACK in development', () => {
    expect(loadConfig({}).webhookAllowPrivateHosts).toEqual([])
    expect(
      loadConfig({ WEBHOOKS_ALLOW_LOOPBACK: 'true', NODE_ENV: 'development' }).webhookAllowPrivateHosts,
    ).toEqual(['localhost', '127.0.0.1', '[::1]'])
    // Development is the default; remote photo links never gain the loopback hosts.
    const dev = loadConfig({ WEBHOOKS_ALLOW_LOOPBACK: 'yes' })
    expect(dev.webhookAllowPrivateHosts).toEqual(['localhost', '127.0.0.1', '[::1]'])
    expect(dev.fetchAllowPrivateHosts).toEqual([])
    expect(
      loadConfig({ WEBHOOKS_ALLOW_LOOPBACK: 'true', FETCH_ALLOW_PRIVATE_HOSTS: 'hooks.test' })
        .webhookAllowPrivateHosts,
    ).toEqual(['hooks.test', 'localhost', '127.0.0.1', '[::1]'])
    expect(
      loadConfig({ WEBHOOKS_ALLOW_LOOPBACK: 'false', NODE_ENV: 'test' }).webhookAllowPrivateHosts,
    ).toEqual([])
    const refused = /^WEBHOOKS_ALLOW_LOOPBACK: may be true only with NODE_ENV=development/
    expect(
      problemsOf({
        WEBHOOKS_ALLOW_LOOPBACK: 'true',
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://v.example',
      }),
    ).toEqual([expect.stringMatching(refused)])
    expect(problemsOf({ WEBHOOKS_ALLOW_LOOPBACK: '1', NODE_ENV: 'test' })).toEqual([
      expect.stringMatching(refused),
    ])
    // Refused together with the other start-up problems.
    expect(problemsOf({ WEBHOOKS_ALLOW_LOOPBACK: 'true', NODE_ENV: 'production' })).toEqual([
      expect.stringMatching(/^PUBLIC_URL:/),
      expect.stringMatching(refused),
    ])
  })

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['no', false],
  ])('parses TRUST_PROXY=%s as %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected)
  })

  it('refuses a TRUST_PROXY that is not a yes or a no', () => {
    expect(problemsOf({ TRUST_PROXY: 'maybe' })).toEqual([expect.stringMatching(/^TRUST_PROXY:/)])
  })

  it('reads text on images for the marketplace checker unless MARKETPLACE_OCR is false', () => {
    expect(loadConfig({}).marketplaceOcr).toBe(true)
    expect(loadConfig({ MARKETPLACE_OCR: 'false' }).marketplaceOcr).toBe(false)
    expect(loadConfig({ MARKETPLACE_OCR: 'true' }).marketplaceOcr).toBe(true)
    expect(problemsOf({ MARKETPLACE_OCR: 'off' })).toEqual([expect.stringMatching(/^MARKETPLACE_OCR:/)])
  })

  it('reads the worker settings, with retry defaults of 4 tries from 5 s', () => {
    expect(loadConfig({}).worker).toEqual({
      concurrency: 2,
      inProcess: true,
      maxAttempts: 4,
      retryBaseMs: 5000,
      // One below the two slots: one user cannot take both.
      maxRunningPerUser: 1,
      maxQueuedPerUser: 50,
      // New image results are measured for the checker one at a time, after their jobs.
      factsConcurrency: 1,
    })
    expect(
      loadConfig({ WORKER_CONCURRENCY: '8', WORKER_MAX_ATTEMPTS: '2', WORKER_RETRY_BASE_MS: '250' }).worker,
    ).toMatchObject({ concurrency: 8, maxAttempts: 2, retryBaseMs: 250 })
    expect(() => loadConfig({ WORKER_MAX_ATTEMPTS: '0' })).toThrow(/WORKER_MAX_ATTEMPTS/)
    expect(loadConfig({ WORKER_FACTS_CONCURRENCY: '0' }).worker.factsConcurrency).toBe(0)
    expect(() => loadConfig({ WORKER_FACTS_CONCURRENCY: '-1' })).toThrow(/WORKER_FACTS_CONCURRENCY/)
  })

  it('keeps the per-user running cap below the worker slots unless set, and warns when it is not', () => {
    const defaults = loadConfig({}).worker
    expect(defaults.maxRunningPerUser).toBeLessThan(defaults.concurrency)
    expect(workerCapWarning(defaults)).toBeNull()
    expect(loadConfig({ WORKER_CONCURRENCY: '8' }).worker.maxRunningPerUser).toBe(7)
    expect(loadConfig({ WORKER_CONCURRENCY: '1' }).worker.maxRunningPerUser).toBe(1)
    expect(
      loadConfig({ WORKER_CONCURRENCY: '8', WORKER_MAX_RUNNING_PER_USER: '8' }).worker.maxRunningPerUser,
    ).toBe(8)
    // Set as high as the slots, or a single slot: the start-up log says one user can fill them.
    for (const env of [
      { WORKER_MAX_RUNNING_PER_USER: '2' },
      { WORKER_CONCURRENCY: '4', WORKER_MAX_RUNNING_PER_USER: '6' },
      { WORKER_CONCURRENCY: '1' },
    ]) {
      expect(workerCapWarning(loadConfig(env).worker)).toMatch(
        /^WORKER_MAX_RUNNING_PER_USER \(\d+\) is not below this worker's WORKER_CONCURRENCY \(\d+\)/,
      )
    }
    expect(
      workerCapWarning(loadConfig({ WORKER_CONCURRENCY: '4', WORKER_MAX_RUNNING_PER_USER: '3' }).worker),
    ).toBeNull()
  })

  it('reads the per-user job caps, refusing a cap of 0', () => {
    expect(loadConfig({ WORKER_MAX_RUNNING_PER_USER: '3', MAX_QUEUED_PER_USER: '10' }).worker).toMatchObject({
      maxRunningPerUser: 3,
      maxQueuedPerUser: 10,
    })
    expect(problemsOf({ WORKER_MAX_RUNNING_PER_USER: '0', MAX_QUEUED_PER_USER: '0' })).toEqual([
      expect.stringMatching(/^WORKER_MAX_RUNNING_PER_USER:/),
      expect.stringMatching(/^MAX_QUEUED_PER_USER:/),
    ])
  })

  it('reads the per-minute limits and the event-stream cap, with their defaults', () => {
    expect(loadConfig({}).limits).toMatchObject({
      generationsPerMinute: 20,
      generationsPerMinutePerClient: 60,
      uploadsPerMinute: 30,
      uploadsPerMinutePerClient: 60,
      eventStreamsPerUser: 10,
      uploadRetentionHours: 24,
    })
    expect(loadConfig({ EVENT_STREAMS_PER_USER: '3' }).limits.eventStreamsPerUser).toBe(3)
    expect(problemsOf({ EVENT_STREAMS_PER_USER: '0' })).toEqual([
      expect.stringMatching(/^EVENT_STREAMS_PER_USER:/),
    ])
  })

  it('reads the webhook test and resend limit per account, 10 a minute by default', () => {
    expect(loadConfig({}).limits.webhookSendsPerMinute).toBe(10)
    expect(loadConfig({ WEBHOOK_SENDS_PER_MINUTE: '3' }).limits.webhookSendsPerMinute).toBe(3)
    expect(problemsOf({ WEBHOOK_SENDS_PER_MINUTE: '0' })).toEqual([
      expect.stringMatching(/^WEBHOOK_SENDS_PER_MINUTE:/),
    ])
  })

  it('reads the public API limits per key, with the documented defaults', () => {
    expect(loadConfig({}).limits).toMatchObject({
      apiReadsPerMinute: apiRateLimitDefaults.readsPerMinute,
      apiWritesPerMinute: apiRateLimitDefaults.writesPerMinute,
    })
    expect(apiRateLimitDefaults).toEqual({ readsPerMinute: 300, writesPerMinute: 60 })
    expect(loadConfig({ API_READS_PER_MINUTE: '5', API_WRITES_PER_MINUTE: '2' }).limits).toMatchObject({
      apiReadsPerMinute: 5,
      apiWritesPerMinute: 2,
    })
    expect(problemsOf({ API_READS_PER_MINUTE: '0', API_WRITES_PER_MINUTE: 'many' })).toEqual([
      expect.stringMatching(/^API_READS_PER_MINUTE:/),
      expect.stringMatching(/^API_WRITES_PER_MINUTE:/),
    ])
  })

  it('accepts port 0 to pick a free port', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0)
  })
})
