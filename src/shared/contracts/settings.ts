import { z } from 'zod'

/** GET /api/settings. The provider key itself is never sent back: only whether one is saved and a mask. */
export type SettingsResponse = {
  hasSubscription: boolean
  autoTopupEnabled: boolean
  byoApiEnabled: boolean
  falKey: { isSet: boolean; mask: string | null }
  /** Whether a payment provider is configured, so that auto top-up can take effect. */
  isBillingLive: boolean
  /**
   * At most this many auto top-up packs per calendar month (1–10); null until the user has a
   * billing customer at the provider (a first purchase saves the card), where it is stored.
   */
  autoTopupMonthlyCap: number | null
  /**
   * What makes this seller's images and videos now: the operator's AI provider or the seller's
   * own key ('ai'), or the built-in offline studio, so the studio can say before Generate what
   * the offline studio will and will not make.
   */
  studio: { image: StudioMaker; video: StudioMaker }
}

export type StudioMaker = 'ai' | 'offline'

/** The bounds of the auto top-up monthly cap (packs per calendar month). */
export const autoTopupCapRange = { min: 1, max: 10 } as const

export const updateSettingsRequestSchema = z
  .object({
    autoTopupEnabled: z.boolean().optional(),
    byoApiEnabled: z.boolean().optional(),
    autoTopupMonthlyCap: z.number().int().min(autoTopupCapRange.min).max(autoTopupCapRange.max).optional(),
  })
  .refine(
    (v) =>
      v.autoTopupEnabled !== undefined ||
      v.byoApiEnabled !== undefined ||
      v.autoTopupMonthlyCap !== undefined,
    { path: ['_root'] },
  )
export type UpdateSettingsRequest = z.input<typeof updateSettingsRequestSchema>

/** fal keys look like `<uuid>:<hex>`; accept any printable token of a sane length. */
export const saveFalKeyRequestSchema = z.object({
  key: z
    .string()
    .trim()
    .min(16)
    .max(256)
    .regex(/^[\x21-\x7e]+$/),
})
export type SaveFalKeyRequest = z.input<typeof saveFalKeyRequestSchema>

/**
 * DELETE /api/account. An account with a password re-enters it; a beta account (no password)
 * sends the confirmation word instead, after the person has typed it in their language.
 */
export const deleteAccountRequestSchema = z.object({
  password: z.string().min(1).max(128).optional(),
  confirmation: z.literal('DELETE').optional(),
})
export type DeleteAccountRequest = z.input<typeof deleteAccountRequestSchema>
