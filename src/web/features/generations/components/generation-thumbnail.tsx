import type { GenerationView } from '#shared/contracts/generations.ts'
import { PlayIcon, TextIcon } from '#web/components/ui/icons.tsx'

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
          {generation.mode === 'video' ? <PlayIcon className="size-4" /> : <TextIcon className="size-4" />}
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
