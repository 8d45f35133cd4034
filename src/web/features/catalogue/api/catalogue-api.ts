import type {
  BatchListResponse,
  BatchView,
  CatalogueImportView,
  RegenerateRowRequest,
  RowCopyRequest,
  RowCopyView,
  StartBatchRequest,
  UpdateMappingRequest,
} from '#shared/contracts/catalogue.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { ApiError, apiRequest, apiUpload, type UploadProgress } from '#web/lib/api-client.ts'

const batchPath = (id: string) => `/api/catalogue/batches/${encodeURIComponent(id)}`

/** Sends the list (multipart `list`); a draft batch comes back, its photos not yet checked. */
export function importProductList(
  list: File,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<CatalogueImportView> {
  const form = new FormData()
  form.append('list', list, list.name)
  return apiUpload<CatalogueImportView>('/api/catalogue/imports', form, {
    onProgress: options.onProgress,
    signal: options.signal,
    fallbackCode: 'CATALOGUE_FILE_TYPE',
  })
}

/**
 * Has the photos checked under the confirmed mapping: the ZIP (multipart `photos`) when the list
 * names photo files, or nothing when it gives image addresses (the server fetches them then).
 */
export function checkPhotos(
  batchId: string,
  photos: File | null,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<CatalogueImportView> {
  const form = new FormData()
  if (photos) form.append('photos', photos, photos.name)
  return apiUpload<CatalogueImportView>(`${batchPath(batchId)}/photos`, form, {
    onProgress: options.onProgress,
    signal: options.signal,
    fallbackCode: 'CATALOGUE_ZIP_INVALID',
  })
}

export function updateMapping(
  batchId: string,
  request: UpdateMappingRequest,
  signal?: AbortSignal,
): Promise<CatalogueImportView> {
  return apiRequest<CatalogueImportView>(`${batchPath(batchId)}/mapping`, {
    method: 'PUT',
    body: request,
    signal,
  })
}

export function startBatch(batchId: string, request: StartBatchRequest): Promise<BatchView> {
  return apiRequest<BatchView>(`${batchPath(batchId)}/start`, { body: request })
}

export function listBatches(signal?: AbortSignal): Promise<BatchListResponse> {
  return apiRequest<BatchListResponse>('/api/catalogue/batches', { signal })
}

/** A draft as the import steps show it, to go on with an import left halfway. */
export function getImportView(batchId: string, signal?: AbortSignal): Promise<CatalogueImportView> {
  return apiRequest<CatalogueImportView>(`${batchPath(batchId)}/import`, { signal })
}

export function getBatch(batchId: string, signal?: AbortSignal): Promise<BatchView> {
  return apiRequest<BatchView>(batchPath(batchId), { signal })
}

export function cancelBatch(batchId: string): Promise<BatchView> {
  return apiRequest<BatchView>(`${batchPath(batchId)}/cancel`, { method: 'POST' })
}

export function retryBatch(batchId: string): Promise<BatchView> {
  return apiRequest<BatchView>(`${batchPath(batchId)}/retry`, { method: 'POST' })
}

/** Deletes a draft (an import that was never started). Already gone counts as done. */
export async function deleteDraft(batchId: string): Promise<void> {
  try {
    await apiRequest<void>(batchPath(batchId), { method: 'DELETE', fallbackCode: 'INTERNAL' })
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error
  }
}

export function batchEventsUrl(batchId: string): string {
  return `${batchPath(batchId)}/events`
}

/** The export's address; `lang` names the listing's own columns (a link cannot send X-Vitrin-Locale). */
export function batchExportUrl(batchId: string, lang: Locale): string {
  return `${batchPath(batchId)}/export?${new URLSearchParams({ lang })}`
}

const rowPath = (batchId: string, rowId: string) => `${batchPath(batchId)}/rows/${encodeURIComponent(rowId)}`

/** One product's copy for its review: the generated copy and the seller's edit. */
export function getRowCopy(batchId: string, rowId: string, signal?: AbortSignal): Promise<RowCopyView> {
  return apiRequest<RowCopyView>(`${rowPath(batchId, rowId)}/copy`, { signal })
}

/** Stores the seller's copy; the export uses it instead of the generated copy. */
export function saveRowCopy(batchId: string, rowId: string, copy: RowCopyRequest): Promise<RowCopyView> {
  return apiRequest<RowCopyView>(`${rowPath(batchId, rowId)}/copy`, { method: 'PUT', body: copy })
}

/** Drops the seller's edit: the generated copy goes out again. */
export function revertRowCopy(batchId: string, rowId: string): Promise<RowCopyView> {
  return apiRequest<RowCopyView>(`${rowPath(batchId, rowId)}/copy`, { method: 'DELETE' })
}

/** The product's outputs (generation ids) to leave out of the export. */
export function setRowExclusions(batchId: string, rowId: string, excluded: string[]): Promise<BatchView> {
  return apiRequest<BatchView>(`${rowPath(batchId, rowId)}/exclusions`, { method: 'PUT', body: { excluded } })
}

/** Makes the product again: all the batch's outputs, or only its copy. */
export function regenerateRow(
  batchId: string,
  rowId: string,
  request: RegenerateRowRequest,
): Promise<BatchView> {
  return apiRequest<BatchView>(`${rowPath(batchId, rowId)}/regenerate`, { body: request })
}
