/** GET /api/public-config: settings the public site may show. Never holds a secret. */
export type PublicConfig = {
  supportEmail: string
}
