import { precompressAssets } from './lib/precompress.ts'
import { prerenderPublicPages } from './lib/prerender.ts'
import { renderPreviewImages } from './lib/preview-images.ts'
import { run } from './lib/run.ts'

// `npm run build`: the web app (Vite), then its public pages prerendered in every language and
// their preview images (docs/decisions/0032-public-pages-per-language.md), then a brotli and a
// gzip copy of each hashed asset for the server to send as they are.
const webDist = 'dist/web'
// Always the production bundle. Vite takes NODE_ENV from the environment when it is set: a caller
// with NODE_ENV=test (a test that starts `npm start`) would get React's development code, about
// 60 KB more, and the build's fingerprint would let the next real start reuse it.
const code = await run('vite', ['build', '--logLevel', 'warn'], { env: { NODE_ENV: 'production' } })
if (code !== 0) process.exit(code)
const started = performance.now()
const pages = await prerenderPublicPages(webDist)
const images = await renderPreviewImages(webDist)
const compressed = precompressAssets(webDist)
console.log(
  `prerendered ${pages} public pages and ${images} preview images, compressed ${compressed} assets, in ${Math.round(performance.now() - started)} ms`,
)
