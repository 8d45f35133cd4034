/** The answer of a request that has nothing to report but its success (a 2xx `{ ok: true }`). */
export type OkResponse = { ok: true }
