import type { GenerationView } from '#shared/contracts/generations.ts'

/** The picture that stands for a generation: its image, its video's poster, else the photo it came from. */
function thumbnailUrl(generation: GenerationView): string | null {
  const result = generation.result
  if (result?.type === 'image') return result.image.url
  if (result?.type === 'video' && result.poster) return result.poster.url
  return generation.input?.url ?? null
}

/**
 * A square, fixed-size preview (so nothing moves when the picture or the result arrives),
 * loaded only when scrolled near. Decorative: the card's text names the item.
 */
export function GenerationThumbnail(props: { generation: GenerationView; className?: string }) {
  const { generation } = props
  const url = thumbnailUrl(generation)
  const isPending = generation.status === 'queued' || generation.status === 'running'
  const isDimmed = generation.status !== 'succeeded' || generation.mode === 'seo'
  return (
    <div
      className={`relative aspect-square w-full overflow-hidden bg-slate-100 ${props.className ?? ''}`}
      data-testid="thumbnail"
    >
      {url ? (
        <img
          src={url}
          alt=""
          loading="lazy"
          decoding="async"
          className={`h-full w-full object-cover ${isDimmed ? 'opacity-60 saturate-50' : ''}`}
        />
      ) : null}
      {generation.mode === 'video' || generation.mode === 'seo' ? (
        <span
          aria-hidden="true"
          className="absolute bottom-2 left-2 inline-flex size-8 items-center justify-center rounded-full bg-slate-900/75 text-white"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none">
            {generation.mode === 'video' ? (
              <path d="M8 5.5v13l10-6.5-10-6.5Z" fill="currentColor" />
            ) : (
              <path
                d="M6 6h12M6 10h12M6 14h8M6 18h6"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            )}
          </svg>
        </span>
      ) : null}
      {isPending ? (
        <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center">
          <span className="inline-block size-8 animate-spin rounded-full border-4 border-brand-700 border-t-transparent" />
        </span>
      ) : null}
    </div>
  )
}
