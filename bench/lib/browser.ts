import { gzipSync } from 'node:zlib'
import { type Browser, chromium } from '@playwright/test'

/** The system Chromium (Debian's), which every browser bench drives. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** The system Chromium, headless, without the background traffic that would blur the figures. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  })
}

/** Size in KB of these files once each is gzipped at level 9, summed: every size budget's measure. */
export function gzippedKB(bodies: Buffer[]): number {
  return bodies.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0) / 1024
}
