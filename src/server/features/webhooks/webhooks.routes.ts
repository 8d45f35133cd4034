import { Hono } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  type CreateWebhookEndpointResponse,
  createWebhookEndpointRequestSchema,
  updateWebhookEndpointRequestSchema,
  type WebhookDeliveriesResponse,
  type WebhookDeliveryResponse,
  type WebhookEndpointResponse,
  type WebhookEndpointsResponse,
  type WebhookSecretResponse,
} from '#shared/contracts/webhooks.ts'
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  resendWebhookDelivery,
  revealWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
  type WebhooksDeps,
} from './webhooks.service.ts'

/**
 * /api/webhooks: the signed-in user's webhook endpoints and their delivery logs (Settings → API).
 * Cookie session only, like the API keys: an endpoint decides where account data is sent.
 */
export function webhooksRoutes(deps: WebhooksDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) =>
      c.json<WebhookEndpointsResponse>(await listWebhookEndpoints(deps, currentUser(c).id)),
    )
    .post('/', validate('json', createWebhookEndpointRequestSchema), async (c) =>
      c.json<CreateWebhookEndpointResponse>(
        await createWebhookEndpoint(deps, currentUser(c).id, c.req.valid('json')),
        201,
      ),
    )
    .patch('/:id', validate('json', updateWebhookEndpointRequestSchema), async (c) =>
      c.json<WebhookEndpointResponse>({
        endpoint: await updateWebhookEndpoint(
          deps,
          currentUser(c).id,
          c.req.param('id'),
          c.req.valid('json'),
        ),
      }),
    )
    .delete('/:id', async (c) => {
      await deleteWebhookEndpoint(deps, currentUser(c).id, c.req.param('id'))
      return c.body(null, 204)
    })
    .get('/:id/secret', async (c) =>
      c.json<WebhookSecretResponse>({
        secret: await revealWebhookSecret(deps, currentUser(c).id, c.req.param('id')),
      }),
    )
    .get('/:id/deliveries', async (c) =>
      c.json<WebhookDeliveriesResponse>(
        await listWebhookDeliveries(deps, currentUser(c).id, c.req.param('id')),
      ),
    )
    .post('/:id/deliveries/:deliveryId/resend', async (c) =>
      c.json<WebhookDeliveryResponse>(
        {
          delivery: await resendWebhookDelivery(
            deps,
            currentUser(c).id,
            c.req.param('id'),
            c.req.param('deliveryId'),
          ),
        },
        202,
      ),
    )
    .post('/:id/test', async (c) =>
      c.json<WebhookDeliveryResponse>(
        { delivery: await sendTestWebhook(deps, currentUser(c).id, c.req.param('id')) },
        202,
      ),
    )
}
