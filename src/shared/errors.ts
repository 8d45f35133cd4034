/**
 * Every error code the API can answer with, and its HTTP status.
 * Codes double as i18n keys: the web app shows `t('errors.<CODE>')`.
 */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  /** A body whose Content-Type the route does not take (e.g. JSON sent without `application/json`). */
  UNSUPPORTED_MEDIA_TYPE: 415,
  AUTH_INVALID_CREDENTIALS: 401,
  AUTH_WRONG_PASSWORD: 400,
  AUTH_EMAIL_TAKEN: 409,
  AUTH_RESET_TOKEN_INVALID: 400,
  /** A beta account (no email) asked for something that needs one, e.g. checkout. */
  EMAIL_REQUIRED: 403,
  /** Adding an email to an account that already has one. */
  ACCOUNT_HAS_EMAIL: 409,
  ACCESS_CODE_INVALID: 400,
  NO_SUBSCRIPTION: 403,
  // The public API (/v1) and its keys (src/server/features/api-keys/).
  /** A /v1 request without `Authorization: Bearer vtr_…` (a session cookie does not count there). */
  API_KEY_REQUIRED: 401,
  /** A /v1 request whose key is malformed, unknown or revoked. */
  API_KEY_INVALID: 401,
  /** API keys and /v1 need a plan with API access (Pro); a downgraded account's keys stop working. */
  API_PLAN_REQUIRED: 403,
  /** Creating a key while the account already has the most live keys allowed (contracts/api-keys.ts). */
  API_KEY_LIMIT_REACHED: 409,
  /** An `Idempotency-Key` already used in the last 24 hours for another request (method, path or body). */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** An `Idempotency-Key` whose first request is still running: send it again in a moment. */
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** Adding a webhook endpoint while the account already has the most allowed (contracts/webhooks.ts). */
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 409,
  /** Sending a test event or a resend to a disabled webhook endpoint: enable it first. */
  WEBHOOK_ENDPOINT_DISABLED: 409,
  BILLING_MANAGED_BY_OPERATOR: 403,
  /** Checkout or a top-up with manual billing: there is nothing to pay. */
  BILLING_PAYMENTS_UNAVAILABLE: 409,
  /** Manage Billing with manual billing: there is no customer portal. */
  BILLING_PORTAL_UNAVAILABLE: 409,
  /** A plan change (or cancel) with a paid provider but no paid plan yet: start with checkout. */
  BILLING_CHECKOUT_REQUIRED: 409,
  /** Checkout for a plan while a paid plan is running: change it instead. */
  BILLING_ALREADY_SUBSCRIBED: 409,
  /** The payment provider did not answer or failed; nothing was changed. */
  BILLING_PROVIDER_UNAVAILABLE: 502,
  /** A marketplace refused the seller's API credentials (or they belong to another account); nothing was saved. */
  MARKETPLACE_KEYS_REFUSED: 400,
  /** Keys a marketplace knows, for another account than the one given (Trendyol's seller ID, Hepsiburada's merchant ID). */
  MARKETPLACE_ACCOUNT_MISMATCH: 400,
  /** A marketplace refuses requests for a while: its rate limit, or the server's address blocked after too many. */
  MARKETPLACE_BUSY: 503,
  /** A marketplace's seller API did not answer, or failed; nothing was saved or sent. */
  MARKETPLACE_UNAVAILABLE: 502,
  /** A marketplace read (categories, attributes, brands) for a seller who has not connected that marketplace. */
  MARKETPLACE_NOT_CONNECTED: 409,
  /** Attributes asked for a category that takes no products (it has subcategories, or the marketplace closed it). */
  MARKETPLACE_CATEGORY_NOT_LEAF: 422,
  /**
   * Fix and resubmit asked for products that are not refused (live, under review, on their way) or
   * not in that publication; `details.fields` names each (`itemIds.<index>`, or `itemIds` when the
   * publication has none refused).
   */
  PUBLICATION_NOT_RESUBMITTABLE: 422,
  /** A payment-provider webhook whose signature, timestamp or body does not check out. */
  WEBHOOK_SIGNATURE_INVALID: 400,
  /** Auto top-up could not charge the saved card (declined, or the bank wants the customer): buy a pack by hand. */
  AUTO_TOPUP_FAILED: 402,
  /** Quota used up and auto top-up has bought the user's monthly limit of packs already. */
  AUTO_TOPUP_CAP_REACHED: 402,
  QUOTA_EXCEEDED_IMAGES: 403,
  QUOTA_EXCEEDED_VIDEOS: 403,
  FILE_MISSING: 400,
  FILE_TYPE_INVALID: 415,
  FILE_TOO_LARGE: 413,
  IMAGE_TOO_LARGE: 400,
  IMAGE_UNREADABLE: 400,
  /** A marketplace export that stays over the marketplace's file-size limit even at the lowest JPEG quality we allow. */
  EXPORT_TOO_LARGE: 422,
  INVALID_GENERATION_MODE: 400,
  GENERATION_NOT_READY: 409,
  /**
   * SEO copy asked of the offline writer with neither a product name nor a category: it would have
   * to invent what the product is (a language model sees the photo and needs neither).
   */
  SEO_NEEDS_PRODUCT_NAME: 422,
  STORAGE_QUOTA_EXCEEDED: 403,
  ASSET_IN_USE: 409,
  // A user-given link the server fetches (src/server/net/public-request.ts). All 4xx: the link is
  // the user's to fix, and the guard logs each cause itself.
  /** Not an http(s) link, or one with a user name or a port other than 80/443. */
  URL_INVALID: 400,
  /** The link's host is, or resolves to, a private, local or otherwise non-public address. */
  URL_NOT_PUBLIC: 400,
  /** The host has no address, refused the connection, or failed TLS. */
  URL_UNREACHABLE: 422,
  /** The link did not answer in full within the deadline. */
  URL_TIMEOUT: 422,
  /** The linked file is larger than allowed. */
  URL_TOO_LARGE: 413,
  /** The link answered with an error status or too many redirects. */
  URL_BAD_STATUS: 422,
  // Publishing needs images the marketplace can download (features/publishing/public-origin.ts):
  // the server's public origin (PUBLIC_URL, or S3_PUBLIC_URL) must be public https. The operator's
  // to fix, so 409 and never logged as our failure; refused before anything is rendered or sent.
  /** The public origin is plain http: marketplaces fetch images over https only. */
  PUBLIC_URL_NOT_HTTPS: 409,
  /** The public origin is this machine (localhost, 127.0.0.0/8, ::1). */
  PUBLIC_URL_LOOPBACK: 409,
  /** The public origin is a private, link-local or otherwise non-public IP address. */
  PUBLIC_URL_PRIVATE: 409,
  /** The public origin is a name no public DNS answers for (no dot, .local, .internal, .lan …). */
  PUBLIC_URL_NOT_PUBLIC_NAME: 409,
  ACCOUNT_DELETE_CONFIRMATION_INVALID: 400,
  // A product list or photo ZIP for the catalogue (src/server/features/catalogue/import/); the
  // limits they name are in src/shared/catalogue/limits.ts. A bad row is not an error: it is
  // reported with its line (src/shared/catalogue/row-problems.ts).
  /** The list file has no bytes. */
  CATALOGUE_FILE_EMPTY: 400,
  /** The list is neither CSV text nor an XLSX workbook (e.g. a photo or an old .xls renamed .csv). */
  CATALOGUE_FILE_TYPE: 415,
  /** The list file is over the size limit. */
  CATALOGUE_FILE_TOO_LARGE: 413,
  /** The list cannot be parsed (a quote never closed, a damaged workbook); `details.line` when known. */
  CATALOGUE_FILE_UNREADABLE: 400,
  /** The workbook would unpack to far more than a list can be (a zip bomb); refused unread. */
  CATALOGUE_FILE_UNSAFE: 400,
  /**
   * The list has more lines than a list of products can (limits.ts maxListLines), or reading it
   * ran past its time or memory budget (catalogue/import/list-reader.ts).
   */
  CATALOGUE_FILE_TOO_COMPLEX: 422,
  /** More product rows than one batch takes. */
  CATALOGUE_TOO_MANY_ROWS: 400,
  /** Only a header, or nothing at all, under it. */
  CATALOGUE_NO_ROWS: 400,
  /** The photo ZIP is not a readable ZIP. */
  CATALOGUE_ZIP_INVALID: 400,
  /** The photo ZIP has more entries than allowed. */
  CATALOGUE_ZIP_TOO_MANY_ENTRIES: 400,
  /** The photo ZIP (or what it unpacks to) is over the size limit. */
  CATALOGUE_ZIP_TOO_LARGE: 413,
  /** Starting a batch needs more images or videos than are left; `details` are QuotaShortDetails (contracts/catalogue.ts). */
  CATALOGUE_QUOTA_SHORT: 402,
  /** A step of the import (mapping, photos, start) on a batch that has started already. */
  CATALOGUE_BATCH_STARTED: 409,
  /** Cancel or retry on a batch that has not started. */
  CATALOGUE_BATCH_NOT_STARTED: 409,
  /** Start before the photos step checked the photos under the current mapping. */
  CATALOGUE_PHOTOS_UNCHECKED: 409,
  /** Start with no row that can become a product. */
  CATALOGUE_NO_PRODUCTS: 400,
  /** Regenerating a product whose outputs are still queued or being made. */
  CATALOGUE_ROW_BUSY: 409,
  /** Publishing a batch none of whose products is finished with an image result (or all were left out). */
  CATALOGUE_NOTHING_TO_PUBLISH: 422,
  /** A video to be made from an image of its batch: the image failed or was canceled. */
  SOURCE_FAILED: 422,
  PROVIDER_REJECTED: 422,
  PROVIDER_UNAVAILABLE: 502,
  PROVIDER_RATE_LIMITED: 503,
  PROVIDER_UNAUTHORIZED: 502,
  PROVIDER_BAD_OUTPUT: 502,
  /** A language model's SEO copy dropped or contradicted the seller's facts, twice. */
  SEO_FACTS_BROKEN: 502,
  GENERATION_TIMEOUT: 504,
  GENERATION_CANCELED: 409,
  RATE_LIMITED: 429,
  QUEUE_FULL: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const

export type ErrorCode = keyof typeof errorStatus

export const errorCodes = Object.keys(errorStatus) as ErrorCode[]

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value)
}

/** The wire shape of every error response. */
export type ErrorBody = {
  error: {
    code: ErrorCode
    /** English text for logs and API users; the UI translates `code` instead. */
    message: string
    details?: ErrorDetails
    requestId?: string
  }
}

export type ErrorDetails = {
  /** For VALIDATION_FAILED: the fields at fault, by dotted path, with a short reason code. */
  fields?: Record<string, string>
  /** For RATE_LIMITED: seconds until another attempt is accepted. */
  retryAfterSeconds?: number
  /** For CATALOGUE_FILE_UNREADABLE: the line of the file where reading failed. */
  line?: number
  /** For CATALOGUE_QUOTA_SHORT (QuotaShortDetails): what the batch needs, what is left, how many products fit. */
  needed?: { images: number; videos: number }
  available?: { images: number; videos: number }
  fits?: number
}

/** An error that maps to a code, a status and the wire shape. Thrown by services, rendered by the app. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly details: ErrorDetails | undefined

  constructor(code: ErrorCode, message?: string, details?: ErrorDetails, options?: { cause?: unknown }) {
    super(message ?? code, options)
    this.name = 'AppError'
    this.code = code
    this.details = details
  }

  get status(): number {
    return errorStatus[this.code]
  }
}
