import { APIError } from 'better-auth/api'
import { AppError, type ErrorCode } from '#shared/errors.ts'

const codeMap: Record<string, ErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: 'AUTH_INVALID_CREDENTIALS',
  INVALID_PASSWORD: 'AUTH_WRONG_PASSWORD',
  USER_ALREADY_EXISTS: 'AUTH_EMAIL_TAKEN',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'AUTH_EMAIL_TAKEN',
  INVALID_TOKEN: 'AUTH_RESET_TOKEN_INVALID',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'FORBIDDEN',
  PASSWORD_TOO_SHORT: 'VALIDATION_FAILED',
  PASSWORD_TOO_LONG: 'VALIDATION_FAILED',
  INVALID_EMAIL: 'VALIDATION_FAILED',
}

/** Runs a call into the auth library and turns its errors into ours (anything unknown stays a 500). */
export async function callAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (error instanceof APIError) {
      const libraryCode = typeof error.body?.code === 'string' ? error.body.code : ''
      const code = codeMap[libraryCode]
      if (code === 'VALIDATION_FAILED') {
        throw new AppError(code, error.message, {
          fields: { password: libraryCode === 'INVALID_EMAIL' ? 'email' : 'tooShort' },
        })
      }
      if (code) throw new AppError(code, error.message)
      if (error.statusCode === 401) throw new AppError('UNAUTHORIZED', 'Sign in required')
    }
    throw error
  }
}

/** Copies the library's Set-Cookie headers onto our response. */
export function forwardCookies(
  from: Headers,
  to: (name: string, value: string, options: { append: true }) => void,
) {
  for (const cookie of from.getSetCookie()) to('Set-Cookie', cookie, { append: true })
}
