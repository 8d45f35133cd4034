import { startConfiguredWorker } from '#server/jobs/worker-runtime.ts'
import { openBenchApp, serveBenchApp } from '../lib/app-server.ts'

// Child process for bench/webhooks.ts: the real app over real HTTP with images on the fal fake
// (bench/support/fal-fake-server.ts) and the worker that `npm start` runs, which starts the
// webhook dispatcher beside it (jobs/worker-runtime.ts), as in production.
//
//   webhooks-server.ts <falUrl>
//
// Reports { port, pid } over IPC once listening; SIGTERM stops the worker and the dispatcher,
// then the server, and removes the temp folder.

const falUrl = process.argv[2]
if (!falUrl) throw new Error('usage: webhooks-server.ts <falUrl>')

const bench = await openBenchApp('webhooks', {
  IMAGE_PROVIDER: 'fal',
  FAL_KEY: 'bench-fal-key-0001',
  FAL_BASE_URL: falUrl,
  // The receiver listens on 127.0.0.1 in the benchmark's process: test-only, refused in production.
  FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
  // One seller's burst of 100 jobs, all accepted at once and run 20 at a time.
  WORKER_CONCURRENCY: '20',
  WORKER_MAX_RUNNING_PER_USER: '20',
  MAX_QUEUED_PER_USER: '1000',
  GENERATIONS_PER_MINUTE: '1000',
  GENERATIONS_PER_MINUTE_PER_CLIENT: '1000',
  UPLOADS_PER_MINUTE: '1000',
})
const worker = await startConfiguredWorker(bench.services)
serveBenchApp(bench, { beforeClose: () => worker.stop() })
