import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import { createScriptedProviders, makeJpeg } from '#tests/support/fake-providers.ts'
import { signedInClient } from '#tests/support/generation-client.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

// The Quickstart's examples (docs/examples), run as a newcomer would run them: the curl script
// and the TypeScript file, against a real server with a Pro user's key, down to the downloaded
// image. docs/api-quickstart.md quotes both files, and must quote them as they are.

const run = promisify(execFile)
const repo = join(import.meta.dirname, '../../../..')
const shellExample = join(repo, 'docs/examples/quickstart.sh')
const typeScriptExample = join(repo, 'docs/examples/quickstart.ts')

describe('the API Quickstart', () => {
  let server: TestServer
  let workDir: string
  let env: Record<string, string>
  let photo: string
  beforeAll(async () => {
    server = await startTestServer(
      { IMAGE_PROVIDER: 'fal', TRUST_PROXY: 'true' },
      { providers: createScriptedProviders().providers },
    )
    const web = await signedInClient(server, 'pro')
    const created = (await (
      await web.request('/api/api-keys', { json: { name: 'quickstart' } })
    ).json()) as CreateApiKeyResponse
    workDir = mkdtempSync(join(tmpdir(), 'vitrin-quickstart-'))
    photo = join(workDir, 'product.jpg')
    writeFileSync(photo, await makeJpeg(640, 480, '#e4e4e7'))
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      VITRIN_URL: server.url,
      VITRIN_API_KEY: created.secret,
      // The examples poll every 2 s by default; the test server finishes in well under that.
      POLL_SECONDS: '0.05',
    }
  })
  afterAll(async () => {
    await server.close()
    rmSync(workDir, { recursive: true, force: true })
  })

  async function expectImage(path: string) {
    const metadata = await sharp(readFileSync(path)).metadata()
    expect(metadata).toMatchObject({ format: 'jpeg', width: 108, height: 108 })
  }

  it('runs the curl example end to end: upload, generate, poll, download', async () => {
    const out = join(workDir, 'curl-result.jpg')
    const { stdout } = await run('/bin/sh', [shellExample, photo, out], {
      env,
      cwd: workDir,
      timeout: 30_000,
    })
    expect(stdout).toMatch(/^generation [0-9a-f-]{36} queued\nsaved .*curl-result\.jpg\n$/)
    await expectImage(out)
  })

  it('runs the TypeScript example end to end with tsx', async () => {
    const out = join(workDir, 'ts-result.jpg')
    const { stdout } = await run(join(repo, 'node_modules/.bin/tsx'), [typeScriptExample, photo, out], {
      env,
      cwd: workDir,
      timeout: 30_000,
    })
    expect(stdout).toMatch(/^generation [0-9a-f-]{36} queued\nsaved .*ts-result\.jpg \(image\/jpeg\)\n$/)
    await expectImage(out)
  })

  it('fails loudly with the error code when the key is wrong', async () => {
    const badEnv = { ...env, VITRIN_API_KEY: 'vtr_not-a-key' }
    await expect(
      run(join(repo, 'node_modules/.bin/tsx'), [typeScriptExample, photo, join(workDir, 'x.jpg')], {
        env: badEnv,
        cwd: workDir,
        timeout: 10_000,
      }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('401 API_KEY_INVALID') })
    await expect(
      run('/bin/sh', [shellExample, photo, join(workDir, 'y.jpg')], {
        env: badEnv,
        cwd: workDir,
        timeout: 10_000,
      }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('"code":"API_KEY_INVALID"') })
  })

  it('is quoted word for word in docs/api-quickstart.md, which the reference page shows', async () => {
    const markdown = readFileSync(join(repo, 'docs/api-quickstart.md'), 'utf8')
    expect(markdown).toContain(`\`\`\`sh\n${readFileSync(shellExample, 'utf8')}\`\`\``)
    expect(markdown).toContain(`\`\`\`ts\n${readFileSync(typeScriptExample, 'utf8')}\`\`\``)
    const document = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as {
      info: { description: string }
    }
    expect(document.info.description).toContain(readFileSync(typeScriptExample, 'utf8'))
  })
})
