import type { SubscriptionView, UsageResponse } from '#shared/contracts/billing.ts'
import type { GenerationAssetView, GenerationView } from '#shared/contracts/generations.ts'
import type { IntegrationsResponse } from '#shared/contracts/integrations.ts'
import type {
  MarketplaceAttribute,
  MarketplaceCategory,
  PublicationItemView,
  PublicationView,
} from '#shared/contracts/publishing.ts'
import type { SettingsResponse } from '#shared/contracts/settings.ts'
import type { PlanId } from '#shared/plans.ts'

// What the API answers, as the web's component tests feed it to fetch: one shape for an asset and
// one for a finished offline image, each test changing only what it is about.

/** An asset as the API shows it: `/files/<id>.<ext>`, a 1080² PNG unless the shape says otherwise. */
export function assetView(id: string, shape: Partial<GenerationAssetView> = {}): GenerationAssetView {
  const extension = shape.mime === 'image/jpeg' ? 'jpg' : 'png'
  return {
    id,
    url: `/files/${id}.${extension}`,
    downloadUrl: `/files/${id}.${extension}?download=1`,
    mime: 'image/png',
    width: 1080,
    height: 1080,
    fileName: `${id}.${extension}`,
    ...shape,
  }
}

/**
 * A product image the offline studio made: succeeded, from `input` to `output` (assets `in` and
 * `out` by default), made on 3 June 2026 in two seconds; `overrides` change the rest.
 */
export function imageGenerationView(
  id: string,
  assets: { input?: GenerationAssetView; output?: GenerationAssetView } = {},
  overrides: Partial<GenerationView> = {},
): GenerationView {
  return {
    id,
    tool: 'product',
    mode: 'image',
    aspectRatio: '1:1',
    prompt: '',
    isRetrying: false,
    status: 'succeeded',
    queuePosition: null,
    errorCode: null,
    provider: 'offline',
    usesOwnKey: false,
    isSaved: false,
    input: assets.input ?? assetView('in'),
    result: {
      type: 'image',
      image: assets.output ?? assetView('out'),
      description: null,
      promptUsed: 'studio',
      provider: 'offline',
    },
    sourceGenerationId: null,
    createdAt: '2026-06-03T11:05:00.000Z',
    startedAt: '2026-06-03T11:05:00.000Z',
    finishedAt: '2026-06-03T11:05:02.000Z',
    ...overrides,
  }
}

/** An active monthly plan, 24 November to 24 December 2026, with nothing switched on or scheduled. */
export function subscriptionView(
  planId: PlanId,
  overrides: Partial<SubscriptionView> = {},
): SubscriptionView {
  return {
    planId,
    status: 'active',
    currentPeriodStart: '2026-11-24T10:00:00.000Z',
    currentPeriodEnd: '2026-12-24T10:00:00.000Z',
    isTrial: false,
    autoTopupEnabled: false,
    byoApiEnabled: false,
    cancelAtPeriodEnd: false,
    scheduledPlanId: null,
    ...overrides,
  }
}

/** A starter plan's June as /api/usage answers it: nothing used of 50 images and 5 videos, no credits. */
export function usageView(overrides: Partial<UsageResponse> = {}): UsageResponse {
  return {
    period: { start: '2026-06-01T00:00:00.000Z', end: '2026-07-01T00:00:00.000Z' },
    subscription: subscriptionView('starter'),
    images: { used: 0, quota: 50 },
    videos: { used: 0, quota: 5 },
    credits: { images: 0, videos: 0 },
    seo: { unlimited: true },
    storage: { usedBytes: 0, quotaBytes: 1 },
    ...overrides,
  }
}

/** The seller's marketplace connections: Trendyol connected (account 123456) or not, Hepsiburada not. */
export function integrationsView(isTrendyolConnected: boolean): IntegrationsResponse {
  const isConnected = isTrendyolConnected
  return {
    integrations: [
      {
        marketplace: 'trendyol',
        isConnected,
        accountId: isConnected ? '123456' : null,
        secretMask: isConnected ? '••••abcd' : null,
        verifiedAt: isConnected ? '2026-11-29T10:00:00.000Z' : null,
      },
      { marketplace: 'hepsiburada', isConnected: false, accountId: null, secretMask: null, verifiedAt: null },
    ],
  }
}

/** A subscriber's settings: nothing switched on, no key of their own, the offline studio, billing not live. */
export function settingsView(overrides: Partial<SettingsResponse> = {}): SettingsResponse {
  return {
    hasSubscription: true,
    autoTopupEnabled: false,
    byoApiEnabled: false,
    falKey: { isSet: false, mask: null },
    isBillingLive: false,
    autoTopupMonthlyCap: null,
    studio: { image: 'offline', video: 'offline' },
    ...overrides,
  }
}

/** Trendyol's leaf category for cup sets, as the category finder answers it. */
export const cupSetCategory: MarketplaceCategory = {
  marketplace: 'trendyol',
  id: '1111',
  name: 'Fincan Takımı',
  path: ['Ev & Mobilya', 'Mutfak', 'Fincan Takımı'],
  isLeaf: true,
}

/** The category's required colour, from a closed list of two. */
export const colourAttribute: MarketplaceAttribute = {
  id: '47',
  name: 'Renk',
  isRequired: true,
  isMultiple: false,
  allowsCustom: false,
  values: [
    { id: '1', name: 'Beyaz' },
    { id: '2', name: 'Kırmızı' },
  ],
}

/** The category's required piece count, from a closed list of `counts`. */
export function pieceCountAttribute(counts: string[]): MarketplaceAttribute {
  return {
    id: '711',
    name: 'Parça Sayısı',
    isRequired: true,
    isMultiple: false,
    allowsCustom: false,
    values: counts.map((count) => ({ id: count, name: count })),
  }
}

/** A product of a publication: `status`, with the marketplace's `reasons` when it refused it. */
export function publicationItemView(
  id: string,
  status: PublicationItemView['status'],
  reasons: string[] = [],
  overrides: Partial<PublicationItemView> = {},
): PublicationItemView {
  return {
    id,
    barcode: `VTR-${id}`,
    title: `Fincan ${id}`,
    status,
    problems: [],
    reasons,
    productUrl: status === 'live' ? `https://www.trendyol.com/fake/p-${id}` : null,
    video: null,
    generationId: null,
    catalogueRowId: null,
    updatedAt: '2026-11-29T11:06:00.000Z',
    ...overrides,
  }
}

/** A finished publication to Trendyol of `items`, its counts theirs. */
export function publicationView(
  id: string,
  items: PublicationItemView[],
  overrides: Partial<PublicationView> = {},
): PublicationView {
  const counts = { blocked: 0, queued: 0, sent: 0, pending: 0, live: 0, rejected: 0, failed: 0 }
  for (const entry of items) counts[entry.status]++
  return {
    id,
    marketplace: 'trendyol',
    catalogueBatchId: null,
    resubmitOf: null,
    status: 'done',
    errorCode: null,
    counts,
    items,
    createdAt: '2026-11-29T11:06:00.000Z',
    updatedAt: '2026-11-29T11:06:00.000Z',
    ...overrides,
  }
}
