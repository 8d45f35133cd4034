import { describe, expect, it } from 'vitest'
import { AppError, errorCodes, errorStatus, isErrorCode } from './errors.ts'

describe('AppError', () => {
  it('maps each code to its HTTP status', () => {
    expect(new AppError('VALIDATION_FAILED').status).toBe(400)
    expect(new AppError('INVALID_JSON').status).toBe(400)
    expect(new AppError('UNAUTHORIZED').status).toBe(401)
    expect(new AppError('FORBIDDEN').status).toBe(403)
    expect(new AppError('NOT_FOUND').status).toBe(404)
    expect(new AppError('PAYLOAD_TOO_LARGE').status).toBe(413)
    expect(new AppError('RATE_LIMITED').status).toBe(429)
    expect(new AppError('INTERNAL').status).toBe(500)
    expect(new AppError('SERVICE_UNAVAILABLE').status).toBe(503)
  })

  it('covers every code with a 4xx or 5xx status', () => {
    for (const code of errorCodes) {
      expect(errorStatus[code]).toBeGreaterThanOrEqual(400)
      expect(errorStatus[code]).toBeLessThan(600)
      expect(new AppError(code).status).toBe(errorStatus[code])
    }
  })

  it('keeps the message, details and cause, and defaults the message to the code', () => {
    const cause = new Error('db down')
    const error = new AppError('RATE_LIMITED', 'Too many', { retryAfterSeconds: 42 }, { cause })
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('AppError')
    expect(error.message).toBe('Too many')
    expect(error.details).toEqual({ retryAfterSeconds: 42 })
    expect(error.cause).toBe(cause)
    expect(new AppError('NOT_FOUND').message).toBe('NOT_FOUND')
    expect(new AppError('NOT_FOUND').details).toBeUndefined()
  })
})

describe('isErrorCode', () => {
  it('accepts the listed codes only', () => {
    expect(isErrorCode('NOT_FOUND')).toBe(true)
    expect(isErrorCode('RATE_LIMITED')).toBe(true)
    expect(isErrorCode('not_found')).toBe(false)
    expect(isErrorCode('NETWORK')).toBe(false)
    expect(isErrorCode('toString')).toBe(false)
    expect(isErrorCode('__proto__')).toBe(false)
    expect(isErrorCode(404)).toBe(false)
    expect(isErrorCode(undefined)).toBe(false)
  })
})
