import { z } from 'zod'

// The seller's connections to the marketplaces' seller APIs (Settings → Integrations, issue 30).
// The secrets go in once and never come back: a connection is shown by its account and a mask.

export const integrationMarketplaces = ['trendyol', 'hepsiburada'] as const
export type IntegrationMarketplace = (typeof integrationMarketplaces)[number]

/**
 * PUT /api/integrations/trendyol: the seller ID, API key and API secret from Trendyol's seller
 * panel ("Hesap Bilgilerim → Entegrasyon Bilgileri").
 */
export const connectTrendyolRequestSchema = z.object({
  sellerId: z
    .string()
    .trim()
    .regex(/^\d{1,20}$/),
  apiKey: z.string().trim().min(8).max(200),
  apiSecret: z.string().trim().min(8).max(200),
})
export type ConnectTrendyolRequest = z.infer<typeof connectTrendyolRequestSchema>

/**
 * PUT /api/integrations/hepsiburada: the merchant ID and the 12-character service key
 * ("Servis Anahtarı") from Hepsiburada's merchant panel.
 */
export const connectHepsiburadaRequestSchema = z.object({
  merchantId: z.string().trim().min(8).max(64),
  serviceKey: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{12}$/),
})
export type ConnectHepsiburadaRequest = z.infer<typeof connectHepsiburadaRequestSchema>

export type IntegrationView = {
  marketplace: IntegrationMarketplace
  isConnected: boolean
  /** The seller's account there (Trendyol seller ID, Hepsiburada merchant ID). */
  accountId: string | null
  /** The secret's last four characters behind dots, never more. */
  secretMask: string | null
  /** When the marketplace last accepted the credentials (ISO 8601). */
  verifiedAt: string | null
}

/** GET /api/integrations, and the answer to a connect or a disconnect. */
export type IntegrationsResponse = { integrations: IntegrationView[] }
