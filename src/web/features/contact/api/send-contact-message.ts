import type { ContactRequest, ContactResponse } from '#shared/contracts/contact.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** Sends the contact form to the server. */
export function sendContactMessage(request: ContactRequest): Promise<ContactResponse> {
  return apiRequest<ContactResponse>('/api/contact', { body: request })
}
