/// <reference types="vitest/config" />

import { availableParallelism } from 'node:os'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { configDefaults } from 'vitest/config'

const serverPort = Number(process.env.PORT ?? 3000)

// Tests that time the server's answers (`*.alone.test.ts`) run in a project of their own, which
// `npm test` runs after the others with nothing beside it: on a 2-core machine another test file's
// work would otherwise be timed as the server's.
const aloneTests = 'src/server/**/*.alone.test.ts'

const serverProject = (name: string, engine: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name,
    environment: 'node' as const,
    // The fakes' own tests (tests/fakes) run once, with the server suite on PGlite.
    include: ['src/server/**/*.test.ts', ...(engine === 'pglite' ? ['tests/fakes/**/*.test.ts'] : [])],
    exclude: [...configDefaults.exclude, aloneTests],
    globalSetup: ['tests/support/server-global-setup.ts'],
    env: { VITRIN_TEST_ENGINE: engine },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // Read by the prerender step (scripts/lib/prerender.ts) to preload each page's chunks, then removed.
    manifest: true,
    reportCompressedSize: false,
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': `http://127.0.0.1:${serverPort}`, '/healthz': `http://127.0.0.1:${serverPort}` },
  },
  test: {
    root: '.',
    // One test file per core. Vitest's default for a run is one fewer, which on a 2-core machine
    // is a single file at a time: the server suites spend much of their time waiting on their
    // database and local HTTP servers, so a second file meanwhile takes a third off the run.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/web-setup.ts'],
        },
      },
      serverProject('server', 'pglite'),
      {
        ...serverProject('alone', 'pglite'),
        test: {
          ...serverProject('alone', 'pglite').test,
          include: [aloneTests],
          exclude: configDefaults.exclude,
        },
      },
      // The same server suite on PostgreSQL, when a server to test against is given.
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-pg', 'postgres')] : []),
    ],
  },
})
