import type { ReactNode } from 'react'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { parseOfflineNote } from '#shared/offline-note.ts'
import { buttonClasses } from '#web/components/ui/button.tsx'
import { DownloadIcon } from '#web/components/ui/icons.tsx'
import { type I18n, useI18n } from '#web/lib/i18n.tsx'
import { SaveButton } from './save-button.tsx'
import { SeoResult } from './seo-result.tsx'

/**
 * A finished generation's result as Create, Fashion and the library show it: the image with its
 * description and prompt, the video with its note, or the SEO copy; Download and Save.
 */
export function GenerationResult(props: {
  generation: GenerationView
  /** Autoplay a video (the fashion tool does, muted). */
  autoPlay?: boolean
  /** Load the image only when scrolled into view (the library's long lists). */
  lazy?: boolean
  onSavedChange?: (generation: GenerationView) => void
  /** Extra content under an image (the convert-to-video box). */
  children?: ReactNode
  /**
   * The marketplace panel for this result, drawn last. Pages fill it (it belongs to the
   * marketplaces feature, which this feature does not import).
   */
  marketplace?: (generation: GenerationView) => ReactNode
}) {
  const { t, formatNumber } = useI18n()
  const { generation } = props
  const result = generation.result
  if (!result) return null
  const isOffline = result.provider === 'offline'
  const marketplace = props.marketplace?.(generation) ?? null
  const actions = (
    <div className="flex flex-wrap items-center gap-2">
      {result.type === 'image' || result.type === 'video' ? (
        <a
          href={result.type === 'image' ? result.image.downloadUrl : result.video.downloadUrl}
          download={result.type === 'image' ? result.image.fileName : result.video.fileName}
          className={buttonClasses('primary')}
          data-testid="download-link"
        >
          <DownloadIcon className="h-4 w-4" />
          {t('studio.result.download')}
        </a>
      ) : null}
      <SaveButton key={generation.id} generation={generation} onChange={props.onSavedChange} />
    </div>
  )

  if (result.type === 'seo') {
    return (
      <div className="space-y-4">
        <SeoResult content={result} />
        {result.colourFromPhoto ? (
          <p
            className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900"
            data-testid="seo-colour-note"
          >
            {t('studio.seo.colourFromPhoto', { colour: result.colourFromPhoto })}
          </p>
        ) : null}
        {isOffline ? <OfflineNote isCopy /> : null}
        {actions}
        {marketplace}
      </div>
    )
  }

  const frameShape = {
    '1:1': 'aspect-square max-w-md',
    '2:3': 'aspect-[2/3] max-w-sm',
    '9:16': 'aspect-[9/16] max-w-xs',
  }[generation.aspectRatio]
  const frame = `mx-auto w-full overflow-hidden rounded-2xl bg-slate-100 ${frameShape}`

  if (result.type === 'video') {
    return (
      <div className="space-y-4">
        <div className={frame}>
          <video
            src={result.video.url}
            poster={result.poster?.url}
            controls
            muted
            playsInline
            loop={props.autoPlay}
            autoPlay={props.autoPlay}
            preload="metadata"
            aria-label={t('studio.result.videoLabel')}
            className="h-full w-full object-contain"
            data-testid="result-video"
          />
        </div>
        <p className="text-center text-sm font-medium text-slate-700" data-testid="video-note">
          {t('studio.result.videoNote', { ratio: generation.aspectRatio })}
        </p>
        {isOffline ? <OfflineNote /> : null}
        {actions}
        {marketplace}
      </div>
    )
  }

  const description = imageDescription(result.description, t)
  // The offline studio had to enlarge the product past its photo's pixels: say so, with what helps.
  const smallPhoto = parseOfflineNote(result.description)?.smallPhoto
  return (
    <div className="space-y-4">
      <div className={frame}>
        <img
          src={result.image.url}
          width={result.image.width ?? undefined}
          height={result.image.height ?? undefined}
          alt={description ? t('studio.result.imageAlt', { description }) : t('studio.result.imageAltPlain')}
          loading={props.lazy ? 'lazy' : 'eager'}
          decoding="async"
          className="h-full w-full object-contain"
          data-testid="result-image"
        />
      </div>
      <dl className="space-y-3 text-sm">
        {description ? (
          <div>
            <dt className="font-semibold text-slate-900">{t('studio.result.description')}</dt>
            <dd className="mt-0.5 text-slate-700" data-testid="result-description">
              {description}
            </dd>
          </div>
        ) : null}
        <div>
          <dt className="font-semibold text-slate-900">{t('studio.result.promptUsed')}</dt>
          <dd className="mt-0.5 break-words text-slate-700" data-testid="result-prompt">
            {result.promptUsed}
          </dd>
        </div>
      </dl>
      {result.productKept === undefined ? null : (
        <p className="text-xs text-slate-600" data-testid="keep-product-note">
          {t(result.productKept ? 'studio.keepProduct.kept' : 'studio.keepProduct.notKept')}
        </p>
      )}
      {smallPhoto ? (
        <p className="text-xs text-amber-800" data-testid="small-photo-note">
          {t('studio.result.offlineNote.smallPhoto', {
            productSide: formatNumber(smallPhoto.productSide),
            enlargement: formatNumber(smallPhoto.enlargement),
            photoSide: formatNumber(smallPhoto.photoSide),
          })}
        </p>
      ) : null}
      {isOffline ? <OfflineNote /> : null}
      {actions}
      {props.children}
      {marketplace}
    </div>
  )
}

/** Says an offline result was made without AI: by the offline studio (images, videos) or its writer (SEO copy). */
function OfflineNote(props: { isCopy?: boolean }) {
  const { t } = useI18n()
  return (
    <p className="text-xs text-slate-600" data-testid="offline-note">
      {t(props.isCopy ? 'studio.result.offlineSeo' : 'studio.result.offline')}
    </p>
  )
}

/** How the place of a product is said: with the view it was drawn in, when the note has one. */
const placeOfView = {
  top: 'studio.result.offlinePlace.sceneTop',
  front: 'studio.result.offlinePlace.sceneFront',
  none: 'studio.result.offlinePlace.scene',
} as const

/**
 * What the offline studio did, in the reader's language (it stores a language-neutral note,
 * shared/offline-note.ts); any other description (fal's own words) as it came.
 */
function imageDescription(description: string | null, t: I18n['t']): string | null {
  const note = parseOfflineNote(description)
  if (!note) return description
  const place =
    note.subject === 'product'
      ? t(placeOfView[note.view ?? 'none'], { scene: t(`studio.scenes.product.${note.scene}`) })
      : note.scene === 'reference'
        ? t('studio.result.offlinePlace.reference')
        : t('studio.result.offlinePlace.style', { scene: t(`studio.scenes.fashion.${note.scene}`) })
  return t(`studio.result.offlineNote.${note.subject}.${note.separation}`, { place })
}
