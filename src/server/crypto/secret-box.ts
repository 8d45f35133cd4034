import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/** Encrypts small secrets (users' provider keys) with AES-256-GCM under a key derived from APP_SECRET. */
export type SecretBox = {
  seal(plaintext: string): string
  open(sealed: string): string
}

const ivLength = 12
const tagLength = 16

export function createSecretBox(appSecret: string, purpose: string): SecretBox {
  // A separate key per purpose, so one leaked derived key says nothing about the others.
  const key = Buffer.from(hkdfSync('sha256', appSecret, 'vitrin', purpose, 32))
  return {
    seal(plaintext) {
      const iv = randomBytes(ivLength)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')
    },
    open(sealed) {
      const raw = Buffer.from(sealed, 'base64url')
      const iv = raw.subarray(0, ivLength)
      const tag = raw.subarray(raw.length - tagLength)
      const body = raw.subarray(ivLength, raw.length - tagLength)
      const decipher = createDecipheriv('aes-256-gcm', key, iv)
      decipher.setAuthTag(tag)
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
    },
  }
}
