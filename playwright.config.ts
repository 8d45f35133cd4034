import { defineConfig, devices } from '@playwright/test'
import {
  fakeProviderSettings,
  falFakePort,
  falFakeURL,
  openaiFakeApiURL,
  openaiFakePort,
  openaiFakeURL,
  studioBaseURL,
  studioPort,
  studioProvidersBaseURL,
  studioProvidersPort,
} from './tests/e2e/support/servers.ts'

// End-to-end tests drive the built app, served by the real server on a fresh embedded
// database, in Debian's Chromium (Playwright's own browser download is not used).
const port = studioPort
const baseURL = studioBaseURL
const dataDir = `.test-output/e2e-data-${port}`
// A second app on the AI providers (fal, OpenAI-compatible), pointed at the fake servers, which
// tests script over HTTP (tests/e2e/support/fakes.ts). Its own port, database and files.
const providersDataDir = `.test-output/e2e-providers-data-${studioProvidersPort}`

/** What both apps share: test hooks, per-test client addresses, the known access codes. */
const testEnv = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  ENABLE_TEST_HOOKS: 'true',
  // Tests set X-Forwarded-For to act as separate clients against per-client rate limits.
  TRUST_PROXY: 'true',
  SUPPORT_EMAIL: 'support@vitrin.test',
  // Known codes for the access-code tests.
  ACCESS_CODES: 'VITRIN,E2EBTA,TRIAL1',
}

export default defineConfig({
  testDir: './tests/e2e',
  outputDir: '.test-output/playwright',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'] }, testIgnore: /.*\.mobile\.spec\.ts/ },
    { name: 'phone', use: { ...devices['Pixel 7'] }, testMatch: /.*\.mobile\.spec\.ts/ },
  ],
  webServer: [
    {
      command: `rm -rf ${dataDir} && tsx src/server/main.ts`,
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...testEnv, PORT: String(port), DATA_DIR: dataDir },
    },
    {
      // Jobs complete after the protocol's queue and progress polls, with no added delay.
      command: `tsx tests/fakes/fal-server.ts --port ${falFakePort} --delay-ms 0`,
      url: `${falFakeURL}/__control/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `tsx tests/fakes/openai-server.ts --port ${openaiFakePort}`,
      url: `${openaiFakeURL}/__control/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `rm -rf ${providersDataDir} && tsx src/server/main.ts`,
      url: `${studioProvidersBaseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...testEnv,
        PORT: String(studioProvidersPort),
        DATA_DIR: providersDataDir,
        IMAGE_PROVIDER: 'fal',
        VIDEO_PROVIDER: 'fal',
        FAL_KEY: fakeProviderSettings.falKey,
        FAL_BASE_URL: falFakeURL,
        SEO_PROVIDER: 'openai',
        OPENAI_API_KEY: fakeProviderSettings.openaiApiKey,
        OPENAI_BASE_URL: openaiFakeApiURL,
        OPENAI_MODEL: fakeProviderSettings.openaiModel,
        // Parallel tests each wait on their own jobs; more slots keep them from queueing.
        WORKER_CONCURRENCY: '4',
        // Transient provider failures are retried as in production, but without the long waits.
        WORKER_RETRY_BASE_MS: '200',
      },
    },
  ],
})
