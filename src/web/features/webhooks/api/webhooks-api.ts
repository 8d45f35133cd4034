import type {
  CreateWebhookEndpointResponse,
  UpdateWebhookEndpointRequest,
  WebhookDeliveriesResponse,
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  WebhookEndpointsResponse,
  WebhookEventType,
  WebhookSecretResponse,
} from '#shared/contracts/webhooks.ts'
import { apiRequest } from '#web/lib/api-client.ts'

const base = '/api/webhooks'
const one = (id: string) => `${base}/${encodeURIComponent(id)}`

export function listWebhookEndpoints(signal?: AbortSignal): Promise<WebhookEndpointsResponse> {
  return apiRequest<WebhookEndpointsResponse>(base, { signal })
}

export function createWebhookEndpoint(
  url: string,
  events: WebhookEventType[],
): Promise<CreateWebhookEndpointResponse> {
  return apiRequest<CreateWebhookEndpointResponse>(base, { method: 'POST', body: { url, events } })
}

export function updateWebhookEndpoint(
  id: string,
  change: UpdateWebhookEndpointRequest,
): Promise<WebhookEndpointResponse> {
  return apiRequest<WebhookEndpointResponse>(one(id), { method: 'PATCH', body: change })
}

export async function deleteWebhookEndpoint(id: string): Promise<void> {
  await apiRequest<undefined>(one(id), { method: 'DELETE' })
}

export function revealWebhookSecret(id: string): Promise<WebhookSecretResponse> {
  return apiRequest<WebhookSecretResponse>(`${one(id)}/secret`)
}

export function listWebhookDeliveries(id: string, signal?: AbortSignal): Promise<WebhookDeliveriesResponse> {
  return apiRequest<WebhookDeliveriesResponse>(`${one(id)}/deliveries`, { signal })
}

export function resendWebhookDelivery(id: string, deliveryId: string): Promise<WebhookDeliveryResponse> {
  return apiRequest<WebhookDeliveryResponse>(
    `${one(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
    { method: 'POST' },
  )
}

export function sendTestWebhook(id: string): Promise<WebhookDeliveryResponse> {
  return apiRequest<WebhookDeliveryResponse>(`${one(id)}/test`, { method: 'POST' })
}
