/** Where a stored file came from: the user's upload, or a generation's result. */
export type AssetKind = 'upload' | 'result'

/**
 * One of the user's stored files, as POST /api/assets (201) and GET /api/assets/:id answer it.
 * `url` serves the file to its owner only. There is no download link: the web app keeps only the
 * `id` of an upload (to start generations with it); the files a generation shows come with theirs
 * (GenerationAssetView in generations.ts).
 */
export type AssetView = {
  id: string
  kind: AssetKind
  mime: string
  /** Size in bytes. */
  bytes: number
  width: number | null
  height: number | null
  /** The name a download gets. */
  fileName: string
  url: string
  createdAt: string
}

/** POST /api/assets, GET /api/assets/:id. */
export type AssetResponse = { asset: AssetView }
