import sharp from 'sharp'
import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createSegmenter } from '#server/segmentation/segmenter.ts'
const hwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024
const seg = createSegmenter()
let t = performance.now()
await seg.ready()
console.log('ready', (performance.now() - t).toFixed(0), 'hwm', hwm().toFixed(0))
const h = monitorEventLoopDelay({ resolution: 10 }); h.enable()
for (const name of ['coffee.png', 'rocket.jpg', 'coffee.png']) {
  const { data, info } = await sharp(`tests/fixtures/photos/${name}`).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  t = performance.now()
  const cpu0 = process.cpuUsage()
  const m = await seg.segment({ data, width: info.width, height: info.height, channels: 3 })
  const cpu = process.cpuUsage(cpu0)
  console.log(name, (performance.now() - t).toFixed(0), 'ms', 'cpu', ((cpu.user + cpu.system) / 1000).toFixed(0), 'conf', m.confidence.toFixed(3), 'share', m.foregroundShare.toFixed(3), 'border', m.borderCoverage.toFixed(3), 'centroid', m.centroid.x.toFixed(2), m.centroid.y.toFixed(2), 'hwm', hwm().toFixed(0))
  await sharp(Buffer.from(m.alpha), { raw: { width: info.width, height: info.height, channels: 1 } }).png().toFile(`/tmp/proto/${name}.refined.png`)
}
h.disable()
console.log('max loop delay', (h.max / 1e6).toFixed(0))
// big one
const big = await sharp('tests/fixtures/photos/coffee.png').resize(1600).removeAlpha().raw().toBuffer({ resolveWithObject: true })
t = performance.now()
await seg.segment({ data: big.data, width: big.info.width, height: big.info.height, channels: 3 })
console.log('1600px', (performance.now() - t).toFixed(0), 'hwm', hwm().toFixed(0))
