import { z } from 'zod'
import { isCommonPassword } from '#shared/common-passwords.ts'
import { safeText } from '#shared/validation.ts'

/** Shortest password accepted; the forms' messages (auth.validation.passwordTooShort) show it. */
export const minPasswordLength = 6
/** Longest password accepted; longer ones only cost hashing time. */
export const maxPasswordLength = 128

const email = safeText().trim().toLowerCase().min(1).max(254).pipe(z.email())
/** A new password: the length rule above, and none of the most common passwords. */
const password = z
  .string()
  .min(minPasswordLength)
  .max(maxPasswordLength)
  .superRefine((value, ctx) => {
    if (isCommonPassword(value)) {
      ctx.addIssue({
        code: 'custom',
        message: 'This password is too common',
        params: { reason: 'tooCommon' },
      })
    }
  })

export const signUpRequestSchema = z.object({ email, password }).superRefine((value, ctx) => {
  if (value.password.trim().toLowerCase() === value.email) {
    ctx.addIssue({
      code: 'custom',
      path: ['password'],
      message: 'The password must not be the email',
      params: { reason: 'sameAsEmail' },
    })
  }
})
export type SignUpRequest = z.input<typeof signUpRequestSchema>

/**
 * POST /api/auth/email: a beta account (made from an access code) takes an email and password of
 * its own, with the same rules as signing up. The answer is a SignedInResponse: the same user.
 */
export const addEmailRequestSchema = signUpRequestSchema
export type AddEmailRequest = z.input<typeof addEmailRequestSchema>

export const signInRequestSchema = z.object({ email, password: z.string().min(1).max(maxPasswordLength) })
export type SignInRequest = z.input<typeof signInRequestSchema>

export const passwordResetRequestSchema = z.object({ email })
export type PasswordResetRequest = z.input<typeof passwordResetRequestSchema>

export const passwordResetConfirmSchema = z.object({ token: safeText().min(1).max(200), password })
export type PasswordResetConfirm = z.input<typeof passwordResetConfirmSchema>

export const changePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1).max(maxPasswordLength),
  newPassword: password,
})
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>

/** The signed-in user as the web app sees it. Beta users have no email of their own. */
export type SessionUser = {
  id: string
  email: string | null
  isBeta: boolean
  createdAt: string
}

/**
 * GET /api/session: who is signed in, if anyone, and when this session ends unless it is used
 * again (it renews with use, up to its absolute lifetime): for a beta account, which has no
 * other way back in, the end of its work.
 */
export type SessionResponse = { user: SessionUser | null; sessionEndsAt: string | null }

/** POST /api/auth/sign-up, /api/auth/sign-in and /api/access: the account now signed in. */
export type SignedInResponse = { user: SessionUser }
