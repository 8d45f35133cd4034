import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nextClientIp } from '#tests/support/factories.ts'
import { uploadPhoto } from '#tests/support/generation-client.ts'
import { createTestClient, startTestServer, type TestServer } from '#tests/support/test-server.ts'

// Deleting data on S3: the objects must leave the bucket, not only the rows the database.
// s3rver as in s3.test.ts (no type declarations; required and given the small shape used here).
type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void> }
type S3rverConstructor = new (options: {
  address: string
  port: number
  silent: boolean
  directory: string
  configureBuckets: { name: string }[]
}) => S3rverInstance
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor

const bucket = 'vitrin-delete-test'
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
const prefix = 'vitrin'

let s3rver: S3rverInstance
let s3rverDir: string
let inspector: S3Client
let server: TestServer

async function keysInBucket(): Promise<string[]> {
  const listed = await inspector.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }))
  return (listed.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])).sort()
}

beforeAll(async () => {
  s3rverDir = mkdtempSync(join(tmpdir(), 'vitrin-s3rver-delete-'))
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3rverDir,
    configureBuckets: [{ name: bucket }],
  })
  const { port } = await s3rver.run()
  const endpoint = `http://127.0.0.1:${port}`
  inspector = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials })
  server = await startTestServer({
    TRUST_PROXY: 'true',
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: prefix,
  })
  expect(server.deps.storage.kind).toBe('s3')
})

afterAll(async () => {
  await server?.close()
  inspector?.destroy()
  await s3rver?.close()
  rmSync(s3rverDir, { recursive: true, force: true })
})

async function signUp() {
  const client = createTestClient(server, { clientIp: nextClientIp() })
  const email = `s3-${Math.random().toString(36).slice(2)}@example.com`
  await client.request('/api/auth/sign-up', { json: { email, password: 'secret-pass-1' } })
  await client.request('/api/billing/subscription', { json: { planId: 'growth' } })
  const userId = (await (await client.request('/api/session')).json()).user.id as string
  return { client, userId }
}

describe('deleting data on S3 storage', () => {
  it('DELETE /api/assets/:id removes the object from the bucket', async () => {
    const { client, userId } = await signUp()
    const kept = await uploadPhoto(client)
    const deleted = await uploadPhoto(client)
    expect(await keysInBucket()).toHaveLength(2)
    expect((await client.request(`/api/assets/${deleted}`, { method: 'DELETE' })).status).toBe(204)
    const keys = await keysInBucket()
    expect(keys).toHaveLength(1)
    expect(keys[0]).toBe(`${prefix}/${userId}/${kept}.jpg`)
  })

  it('account deletion removes every object of the account, and only its own', async () => {
    const other = await signUp()
    const otherPhoto = await uploadPhoto(other.client)
    const { client, userId } = await signUp()
    await uploadPhoto(client)
    await uploadPhoto(client)
    const before = await keysInBucket()
    expect(before.filter((key) => key.startsWith(`${prefix}/${userId}/`))).toHaveLength(2)

    const response = await client.request('/api/account', {
      method: 'DELETE',
      json: { password: 'secret-pass-1' },
    })
    expect(response.status).toBe(204)
    const after = await keysInBucket()
    expect(after.filter((key) => key.startsWith(`${prefix}/${userId}/`))).toEqual([])
    expect(after).toContain(`${prefix}/${other.userId}/${otherPhoto}.jpg`)
  })
})
