import { z } from 'zod'
import { locales } from '#shared/i18n/locales.ts'
import { safeText } from '#shared/validation.ts'

export const inquiryTypes = [
  'general',
  'enterprise',
  'setup',
  'integration',
  'volume',
  'partnership',
] as const
export type InquiryType = (typeof inquiryTypes)[number]

const trimmed = (max: number) => safeText().trim().max(max)

/** POST /api/contact request body. `website` is a honeypot: people never see or fill it. */
export const contactRequestSchema = z.object({
  name: trimmed(120).min(1),
  email: safeText().trim().min(1).max(254).pipe(z.email()),
  company: trimmed(160).optional().default(''),
  phone: trimmed(40).optional().default(''),
  inquiryType: z.enum(inquiryTypes).default('general'),
  message: trimmed(5000).min(1),
  locale: z.enum(locales).default('en'),
  website: safeText().max(500).optional().default(''),
})

export type ContactRequest = z.input<typeof contactRequestSchema>

export const contactResponseSchema = z.object({ ok: z.literal(true) })
export type ContactResponse = z.infer<typeof contactResponseSchema>
