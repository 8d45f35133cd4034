import { parentPort, type TransferListItem } from 'node:worker_threads'

// The OCR thread (read-text.ts starts it through tesseract.js's `workerPath`): three guards, then
// tesseract.js's own worker script. Node strips the types itself, so this file stays erasable
// TypeScript.
//
// 1. No network. The language data is read from the installed @tesseract.js-data packages
//    (read-text.ts), and tesseract.js fetches only when that fails (from its `langPath`, a CDN by
//    default). Its worker script takes `global.fetch` when it loads, so replacing fetch first
//    turns any such attempt into a failed start instead of a download.
// 2. A failed start ends the thread. tesseract.js rejects the step that failed but never its
//    createWorker promise, and keeps the thread (and so the process) alive; read-text.ts learns
//    of the failure through the `errorHandler` option, and the thread goes once it has said so.
// 3. Leptonica writes "Error in boxClipToRectangle: box outside rectangle" and the like to stderr
//    for ordinary photos (recognition goes on). Those lines are dropped so that server logs stay
//    JSON; anything else still reaches stderr.

globalThis.fetch = (async (input: unknown) => {
  throw new Error(`OCR must not reach the network (asked for ${String(input)})`)
}) as typeof fetch

const port = parentPort
if (!port) throw new Error('ocr-worker.ts runs as a worker thread (see read-text.ts)')
const post = port.postMessage.bind(port)
port.postMessage = (message: unknown, transfer?: readonly TransferListItem[]) => {
  post(message, transfer)
  const { status, action } = (message ?? {}) as { status?: string; action?: string }
  if (status === 'reject' && (action === 'load' || action === 'loadLanguage' || action === 'initialize')) {
    // After the answer has left: exiting at once could drop it.
    setTimeout(() => process.exit(1), 50)
  }
}

// biome-ignore lint/suspicious/noConsole: the thread's stderr is what is being filtered
const printError = console.error.bind(console)
console.error = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && /^(Error|Warning) in \w+:/.test(args[0])) return
  printError(...args)
}

// A plain string: the script has no type declarations, and nothing here calls into it.
const tesseractWorkerScript = 'tesseract.js/src/worker-script/node/index.js'
await import(tesseractWorkerScript)
