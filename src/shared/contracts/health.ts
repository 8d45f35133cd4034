/** GET /healthz: the process answers. */
export type HealthResponse = { status: 'ok' }

/** GET /readyz: 200 when `ready`; 503 while shutting down or when the database does not answer. */
export type ReadinessResponse =
  | { status: 'ready' | 'unavailable'; database: 'pglite' | 'postgres' }
  | { status: 'shutting_down' }
