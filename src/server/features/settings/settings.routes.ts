import { Hono } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  type SettingsResponse,
  saveFalKeyRequestSchema,
  updateSettingsRequestSchema,
} from '#shared/contracts/settings.ts'
import {
  deleteFalKey,
  getSettings,
  type SettingsDeps,
  saveFalKey,
  updateSettings,
} from './settings.service.ts'

export function settingsRoutes(deps: SettingsDeps & { now: () => Date }) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) => c.json<SettingsResponse>(await getSettings(deps, currentUser(c).id, deps.now())))
    .patch('/', validate('json', updateSettingsRequestSchema), async (c) =>
      c.json<SettingsResponse>(
        await updateSettings(deps, currentUser(c).id, c.req.valid('json'), deps.now()),
      ),
    )
    .put('/fal-key', validate('json', saveFalKeyRequestSchema), async (c) =>
      c.json<SettingsResponse>(
        await saveFalKey(deps, currentUser(c).id, c.req.valid('json').key, deps.now()),
      ),
    )
    .delete('/fal-key', async (c) =>
      c.json<SettingsResponse>(await deleteFalKey(deps, currentUser(c).id, deps.now())),
    )
}
