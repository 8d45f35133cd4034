import sharp from 'sharp'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { loadPhoto, separateSubject } from '#server/providers/offline-studio/separate.ts'
import { thinProductPhoto } from '#tests/support/test-photos.ts'
const bytes = await thinProductPhoto()
await sharp(bytes).png().toFile('/tmp/m/pen-photo.png')
const subject = await separateSubject(await loadPhoto(bytes), sharedSegmenter())
console.log(subject.width, subject.height, (subject as any).method ?? '', Object.keys(subject))
await sharp(subject.data, { raw: { width: subject.width, height: subject.height, channels: 4 } }).flatten({ background: '#ff00ff' }).png().toFile('/tmp/m/pen-cut.png')
process.exit(0)
