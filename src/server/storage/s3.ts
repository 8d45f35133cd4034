import { Readable } from 'node:stream'
import type { Config } from '#server/config.ts'
import { type ObjectStorage, StorageNotFoundError } from './types.ts'

export type S3StorageOptions = NonNullable<Config['storage']['s3']>

/** How long a store may take to accept a connection, and then to answer, before the call fails. */
const connectionTimeoutMs = 5_000
const requestTimeoutMs = 60_000

/** The parts of an SDK error we look at; the SDK types its errors loosely across versions. */
type S3ErrorShape = { name?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: unknown } }

/**
 * True when the store says the key is not there. A 404 for a missing bucket is a broken
 * configuration, not a missing object, so it is left to surface as a 500.
 */
function isMissingObject(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { name, Code, $metadata } = error as S3ErrorShape
  if (name === 'NoSuchKey' || Code === 'NoSuchKey') return true
  return $metadata?.httpStatusCode === 404 && name !== 'NoSuchBucket' && Code !== 'NoSuchBucket'
}

/**
 * Objects in an S3 bucket, on AWS or any S3-compatible store (MinIO, R2, Ceph, s3rver). The SDK
 * is imported here, lazily, so the embedded default never loads it. A PUT is atomic in S3, so a
 * reader never sees a half-written object (the contract local-disk.ts meets with a rename).
 */
export async function createS3Storage(options: S3StorageOptions): Promise<ObjectStorage> {
  const { S3Client, PutObjectCommand, GetObjectCommand, DeleteObjectCommand } = await import(
    '@aws-sdk/client-s3'
  )
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // Since SDK 3.729 every PUT carries a CRC32 checksum by default, which several
    // S3-compatible stores refuse or mis-store; send and check checksums only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Without these a store that stops answering would hold a request (and a job) forever.
    requestHandler: { connectionTimeout: connectionTimeoutMs, requestTimeout: requestTimeoutMs },
  })
  const objectKey = (key: string) => (options.prefix ? `${options.prefix}/${key}` : key)

  return {
    kind: 's3',
    async put(key, bytes, contentType, putOptions) {
      await client.send(
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
          ...(putOptions?.cacheControl ? { CacheControl: putOptions.cacheControl } : {}),
        }),
      )
    },
    async get(key) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }),
        )
        if (!object.Body) throw new Error(`S3 returned no body for ${objectKey(key)}`)
        const bytes = await object.Body.transformToByteArray()
        // A view, not a copy: the array is ours alone once the stream is read.
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      } catch (error) {
        if (isMissingObject(error)) throw new StorageNotFoundError(key)
        throw error
      }
    },
    async getStream(key) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }),
        )
        // On Node the SDK's body is the HTTP response itself (an IncomingMessage), so reading it
        // follows the reader's pace; the socket is released when it ends or is destroyed.
        if (!(object.Body instanceof Readable)) {
          throw new Error(`S3 returned no readable body for ${objectKey(key)}`)
        }
        return object.Body
      } catch (error) {
        if (isMissingObject(error)) throw new StorageNotFoundError(key)
        throw error
      }
    },
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: objectKey(key) }))
      } catch (error) {
        // S3 answers 204 for a missing key; some compatible stores answer 404 instead.
        if (!isMissingObject(error)) throw error
      }
    },
  }
}
