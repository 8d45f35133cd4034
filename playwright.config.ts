import { defineConfig, devices } from '@playwright/test'

// End-to-end tests drive the built app, served by the real server on a fresh embedded
// database, in Debian's Chromium (Playwright's own browser download is not used).
const port = Number(process.env.E2E_PORT ?? 4173)
const baseURL = `http://127.0.0.1:${port}`
const dataDir = `.test-output/e2e-data-${port}`

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
  webServer: {
    command: `rm -rf ${dataDir} && tsx src/server/main.ts`,
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ENABLE_TEST_HOOKS: 'true',
      // Tests set X-Forwarded-For to act as separate clients against per-client rate limits.
      TRUST_PROXY: 'true',
      SUPPORT_EMAIL: 'support@vitrin.test',
      // Known codes for the access-code tests.
      ACCESS_CODES: 'VITRIN,E2EBTA,TRIAL1',
    },
  },
})
