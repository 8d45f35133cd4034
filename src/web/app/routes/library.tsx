import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { Button } from '#web/components/ui/button.tsx'
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx'
import { Container } from '#web/components/ui/container.tsx'
import { LoadState } from '#web/components/ui/load-state.tsx'
import { PageHeader } from '#web/components/ui/page-header.tsx'
import { Tabs } from '#web/components/ui/tabs.tsx'
import { deleteGeneration } from '#web/features/generations/api/generations-api.ts'
import { GenerationCard, openButtonId } from '#web/features/generations/components/generation-card.tsx'
import { GenerationDialog } from '#web/features/generations/components/generation-dialog.tsx'
import { LibraryFilters } from '#web/features/generations/components/library-filters.tsx'
import {
  emptyTitleId,
  LibraryEmpty,
  LibrarySkeleton,
} from '#web/features/generations/components/library-states.tsx'
import { itemLabel } from '#web/features/generations/generation-labels.ts'
import { useLibraryList } from '#web/features/generations/hooks/use-library-list.ts'
import { watchedIds } from '#web/features/generations/hooks/use-live-generation.ts'
import { filterFromSearch } from '#web/features/generations/library-filter.ts'
import { MarketplaceCardSummary } from '#web/features/marketplaces/components/marketplace-card-summary.tsx'
import { MarketplacePanel } from '#web/features/marketplaces/components/marketplace-panel.tsx'
import { useMarketplaceSummaries } from '#web/features/marketplaces/hooks/use-marketplace-summaries.ts'
import { LazyPublicationsList } from '#web/features/publishing/components/publications-list-lazy.tsx'
import { LazyPublishPanel } from '#web/features/publishing/components/publish-panel-lazy.tsx'
import { useI18n } from '#web/lib/i18n.tsx'
import { useAnnouncer } from '#web/lib/use-announcer.ts'
import { useDocumentTitle } from '#web/lib/use-document-title.ts'

const pageSize = 20

const views = ['items', 'publications'] as const
type LibraryView = (typeof views)[number]

/**
 * The library: every generation, newest first, filtered by type and "Saved" (kept in the URL),
 * opened in a dialog (`?open=<id>`, which the dashboard links to), downloaded and deleted; and,
 * on its own tab (`?view=publications`), what was published to the marketplaces.
 */
export function LibraryPage() {
  const { t } = useI18n()
  useDocumentTitle(t('studio.library.documentTitle'))
  const [params, setParams] = useSearchParams()
  const requested = params.get('view')
  const view: LibraryView = requested === 'publications' ? 'publications' : 'items'

  function handleSelect(next: LibraryView) {
    setParams(
      (current) => {
        const search = new URLSearchParams(current)
        if (next === 'items') search.delete('view')
        else search.set('view', next)
        return search
      },
      { replace: true, preventScrollReset: true },
    )
  }

  return (
    <div className="min-h-[60vh] bg-slate-50">
      <PageHeader title={t('studio.library.title')} subtitle={t('studio.library.subtitle')} />
      <Container className="py-8 sm:py-10">
        <Tabs
          idPrefix="library"
          label={t('publishing.library.tabsLabel')}
          tabs={views.map((id) => ({ id, label: t(`publishing.library.tabs.${id}`) }))}
          selected={view}
          onSelect={handleSelect}
        >
          {view === 'publications' ? <LazyPublicationsList /> : <LibraryItems />}
        </Tabs>
      </Container>
    </div>
  )
}

/** The generations tab: the grid, its filters, the open item's dialog and deleting. */
function LibraryItems() {
  const { t, locale } = useI18n()
  const [params, setParams] = useSearchParams()
  const filter = filterFromSearch(params)
  const openId = params.get('open')
  const list = useLibraryList(filter, pageSize)
  const [deleting, setDeleting] = useState<GenerationView | null>(null)
  const [announcement, announce] = useAnnouncer()
  // The id of an element to focus after the next render (a card after a deletion or "Load more").
  const [focusTarget, setFocusTarget] = useState<string | null>(null)

  useEffect(() => {
    if (!focusTarget) return
    document.getElementById(focusTarget)?.focus()
    setFocusTarget(null)
  }, [focusTarget])

  const items = list.status === 'ready' ? list.data.items : []
  const watched = watchedIds(items)
  const summaries = useMarketplaceSummaries(items)

  function handleClose() {
    setOpen(null)
    // The panel may have changed the preferred marketplace; the cards follow it.
    summaries.refresh()
  }

  function setOpen(id: string | null) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        if (id) next.set('open', id)
        else next.delete('open')
        return next
      },
      { replace: true, preventScrollReset: true },
    )
  }

  function handleSettled(generation: GenerationView) {
    list.replace(generation)
    announce(
      t('studio.library.itemStatus', {
        item: itemLabel(t, locale, generation),
        status: t(`studio.library.status.${generation.status}`),
      }),
    )
  }

  function handleDeleteRequest(generation: GenerationView) {
    setDeleting(generation)
    if (openId) setOpen(null)
  }

  async function handleConfirmDelete() {
    if (!deleting) return
    await deleteGeneration(deleting.id)
    const index = items.findIndex((item) => item.id === deleting.id)
    const neighbour = index >= 0 ? (items[index + 1] ?? items[index - 1]) : undefined
    list.remove(deleting.id)
    setDeleting(null)
    announce(t('studio.library.deleted'))
    // Focus goes to the next card (or the empty state) rather than being lost with the card.
    if (index >= 0) setFocusTarget(neighbour ? openButtonId(neighbour.id) : emptyTitleId)
  }

  async function handleLoadMore() {
    const added = await list.loadMore()
    const first = added[0]
    if (first) setFocusTarget(openButtonId(first.id))
  }

  return (
    <>
      <div className="space-y-6">
        <LibraryFilters filter={filter} />
        <p role="status" aria-live="polite" className="sr-only" data-testid="library-announcer">
          {announcement}
        </p>
        <LoadState
          resource={list}
          loading={<LibrarySkeleton count={8} label={t('studio.library.loading')} />}
          errorTitle={t('studio.library.error')}
          retryLabel={t('studio.library.retry')}
        >
          {(page) =>
            page.items.length === 0 ? (
              <LibraryEmpty filter={filter} />
            ) : (
              <>
                <ul
                  className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4"
                  data-testid="library-grid"
                >
                  {page.items.map((generation) => (
                    <li key={generation.id}>
                      <GenerationCard
                        generation={generation}
                        isWatched={watched.has(generation.id)}
                        onOpen={(item) => setOpen(item.id)}
                        onDelete={handleDeleteRequest}
                        onSettled={handleSettled}
                        marketplaceSummary={(item) => (
                          <MarketplaceCardSummary
                            profile={summaries.profile}
                            state={summaries.summaryOf(item)}
                            onOpen={() => setOpen(item.id)}
                          />
                        )}
                      />
                    </li>
                  ))}
                </ul>
                {page.nextCursor ? (
                  <div className="flex flex-col items-center gap-2">
                    <Button
                      variant="secondary"
                      onClick={() => void handleLoadMore()}
                      disabled={list.isLoadingMore}
                      aria-busy={list.isLoadingMore}
                      data-testid="load-more"
                    >
                      {list.isLoadingMore ? t('studio.library.loadingMore') : t('studio.library.loadMore')}
                    </Button>
                    {list.moreError ? (
                      <p role="alert" className="text-sm text-red-800">
                        {t('studio.library.error')}
                      </p>
                    ) : null}
                  </div>
                ) : null}
              </>
            )
          }
        </LoadState>
      </div>
      {openId && !deleting ? (
        <GenerationDialog
          key={openId}
          id={openId}
          initial={items.find((item) => item.id === openId)}
          onClose={handleClose}
          onDelete={handleDeleteRequest}
          onChange={list.replace}
          marketplace={(generation) => (
            <div key={generation.id} className="space-y-4">
              <MarketplacePanel generation={generation} />
              <LazyPublishPanel generation={generation} />
            </div>
          )}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={t('studio.library.deleteTitle')}
          body={
            <>
              <p className="font-medium text-slate-900">{itemLabel(t, locale, deleting)}</p>
              <p>{t('studio.library.deleteBody')}</p>
            </>
          }
          confirmLabel={t('studio.library.deleteConfirm')}
          cancelLabel={t('studio.library.cancel')}
          busyLabel={t('billing.working')}
          tone="danger"
          onConfirm={handleConfirmDelete}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  )
}
