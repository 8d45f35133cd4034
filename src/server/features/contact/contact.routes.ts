import { Hono } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { validate } from '#server/http/validate.ts'
import { type ContactResponse, contactRequestSchema } from '#shared/contracts/contact.ts'
import { type ContactDeps, submitContactMessage } from './contact.service.ts'

export function contactRoutes(deps: ContactDeps) {
  return new Hono<AppEnv>().post('/', validate('json', contactRequestSchema), async (c) => {
    await submitContactMessage(deps, c.req.valid('json'), { clientIp: c.get('clientIp'), log: c.get('log') })
    return c.json<ContactResponse>({ ok: true }, 201)
  })
}
