import { fromBuffer } from 'yauzl'

export type Unzipped = { name: string; bytes: Buffer; isStored: boolean }

/** Every entry of a ZIP, in the order written, read with yauzl as a user's unzip tool would. */
export function unzip(zip: Buffer): Promise<Unzipped[]> {
  return new Promise((resolve, reject) => {
    fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (error, file) => {
      if (error || !file) return reject(error)
      const entries: Unzipped[] = []
      file.on('error', reject)
      file.on('end', () => resolve(entries))
      file.on('entry', (entry) => {
        file.openReadStream(entry, (openError, stream) => {
          if (openError || !stream) return reject(openError)
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('error', reject)
          stream.on('end', () => {
            entries.push({
              name: entry.fileName,
              bytes: Buffer.concat(chunks),
              isStored: entry.compressionMethod === 0,
            })
            file.readEntry()
          })
        })
      })
      file.readEntry()
    })
  })
}
