import { and, eq } from 'drizzle-orm'
import {
  type CachedMarketplaceCategory,
  marketplaceCategoryAttributes,
  marketplaceCategoryLists,
} from '#server/db/schema/index.ts'
import { setNewest } from '#shared/bounded-map.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import {
  type CategoryAttributesResponse,
  type CategorySearchResponse,
  categorySearchLimit,
  type MarketplaceAttribute,
  type MarketplaceBrand,
  type MarketplaceCategory,
  type TaxonomyRefreshResponse,
} from '#shared/contracts/publishing.ts'
import { AppError } from '#shared/errors.ts'
import { type IndexedCategory, indexCategories, searchCategories } from './category-search.ts'
import { type ConnectionsDeps, openHepsiburada, openTrendyol } from './connections.service.ts'
import type { HepsiburadaApi } from './hepsiburada-api.ts'
import { appErrorOf, brandSpellings, MarketplaceApiError } from './marketplace-api-error.ts'
import {
  flattenTrendyol,
  hepsiburadaAttributes,
  hepsiburadaCategories,
  trendyolAttributes,
} from './marketplace-categories.ts'
import type { TrendyolApi } from './trendyol-api.ts'

// The marketplaces' reference data, in the shared shapes: the category list with paths (searched
// in Turkish), a category's attributes with their allowed values, and Trendyol's brands. Category
// lists are the same for every seller, so they are cached once per marketplace in the database
// (read with the credentials of whichever connected seller asks) and read again after
// `taxonomyMaxAgeMs` or on a refresh. Attributes are read one category at a time, when asked for:
// Trendyol's tree has thousands of categories, and each attribute's values are a request of their own.

/** How long a cached category list or a category's attributes is used before it is read again. */
export const taxonomyMaxAgeMs = 24 * 60 * 60 * 1000

/** How long a brand search's answer is reused (brands are added, rarely renamed). */
export const brandMemoMs = 10 * 60 * 1000
const brandMemoEntries = 500
/** The most brands a search answers with. */
export const brandSearchLimit = 50

export type TaxonomyDeps = ConnectionsDeps & {
  now: () => Date
  /** Overrides taxonomyMaxAgeMs. */
  maxAgeMs?: number
}

type Client =
  | { marketplace: 'trendyol'; api: TrendyolApi }
  | { marketplace: 'hepsiburada'; api: HepsiburadaApi }

type CategoryList = {
  fetchedAt: Date
  index: IndexedCategory[]
  byId: Map<string, CachedMarketplaceCategory>
}

export type Taxonomy = ReturnType<typeof createTaxonomy>

/**
 * The taxonomy service. It keeps, per process, the last category list it read from the database
 * with its search index (built again only when the row's fetched_at changes), the reads under
 * way (so a burst of searches on a stale list reads the marketplace once), and recent brand
 * searches.
 */
export function createTaxonomy(deps: TaxonomyDeps) {
  const maxAgeMs = deps.maxAgeMs ?? taxonomyMaxAgeMs
  const lists = new Map<IntegrationMarketplace, CategoryList>()
  const underWay = new Map<string, Promise<unknown>>()
  const brandMemo = new Map<string, { at: number; brands: MarketplaceBrand[] }>()

  function once<T>(key: string, read: () => Promise<T>): Promise<T> {
    const running = underWay.get(key)
    if (running) return running as Promise<T>
    const started = read().finally(() => underWay.delete(key))
    underWay.set(key, started)
    return started
  }

  const isFresh = (fetchedAt: Date) => deps.now().getTime() - fetchedAt.getTime() < maxAgeMs

  async function clientFor(userId: string, marketplace: IntegrationMarketplace): Promise<Client> {
    if (marketplace === 'trendyol') {
      const api = await openTrendyol(deps, userId)
      if (api) return { marketplace, api }
    } else {
      const api = await openHepsiburada(deps, userId)
      if (api) return { marketplace, api }
    }
    throw new AppError('MARKETPLACE_NOT_CONNECTED', `No ${marketplace} connection`)
  }

  /** Runs a marketplace read; its failure becomes the error that tells the seller what to do. */
  async function ask<T>(
    marketplace: IntegrationMarketplace,
    what: string,
    read: () => Promise<T>,
  ): Promise<T> {
    try {
      return await read()
    } catch (error) {
      if (!(error instanceof MarketplaceApiError)) throw error
      deps.log.warn(
        { marketplace, what, failure: error.failure, status: error.status, messages: error.messages },
        'marketplace refused or failed a taxonomy read',
      )
      throw appErrorOf(error)
    }
  }

  function remember(
    marketplace: IntegrationMarketplace,
    categories: CachedMarketplaceCategory[],
    fetchedAt: Date,
  ): CategoryList {
    const list = {
      fetchedAt,
      index: indexCategories(categories),
      byId: new Map(categories.map((c) => [c.id, c])),
    }
    lists.set(marketplace, list)
    return list
  }

  /** The list kept in the database (this process's copy when it is the same); null when there is none. */
  async function storedList(marketplace: IntegrationMarketplace): Promise<CategoryList | null> {
    const [row] = await deps.db
      .select({ fetchedAt: marketplaceCategoryLists.fetchedAt })
      .from(marketplaceCategoryLists)
      .where(eq(marketplaceCategoryLists.marketplace, marketplace))
    if (!row) return null
    const kept = lists.get(marketplace)
    if (kept && kept.fetchedAt.getTime() === row.fetchedAt.getTime()) return kept
    const [full] = await deps.db
      .select()
      .from(marketplaceCategoryLists)
      .where(eq(marketplaceCategoryLists.marketplace, marketplace))
    return full ? remember(marketplace, full.categories, full.fetchedAt) : null
  }

  /**
   * The category list: the stored one while fresh, else the marketplace's. When the marketplace is
   * busy or down, an older stored list still answers (categories rarely change in a day); a refresh
   * asked for by the seller says what went wrong instead.
   */
  async function categoryList(client: Client, force = false): Promise<CategoryList> {
    const { marketplace } = client
    const stored = force ? null : await storedList(marketplace)
    if (stored && isFresh(stored.fetchedAt)) return stored
    try {
      return await once(`list ${marketplace}`, async () => {
        const categories =
          client.marketplace === 'trendyol'
            ? flattenTrendyol(await ask(marketplace, 'categories', () => client.api.categoryTree()))
            : hepsiburadaCategories(await ask(marketplace, 'categories', () => client.api.activeCategories()))
        const fetchedAt = deps.now()
        await deps.db
          .insert(marketplaceCategoryLists)
          .values({ marketplace, categories, fetchedAt })
          .onConflictDoUpdate({
            target: marketplaceCategoryLists.marketplace,
            set: { categories, fetchedAt },
          })
        return remember(marketplace, categories, fetchedAt)
      })
    } catch (error) {
      if (stored && isTransient(error)) return stored
      throw error
    }
  }

  async function readAttributes(client: Client, categoryId: string): Promise<MarketplaceAttribute[]> {
    const { marketplace } = client
    try {
      return client.marketplace === 'trendyol'
        ? await trendyolAttributes(client.api, Number(categoryId))
        : await hepsiburadaAttributes(client.api, Number(categoryId))
    } catch (error) {
      // The marketplace says this category takes no products (closed since the list was read).
      if (
        error instanceof MarketplaceApiError &&
        (error.failure === 'rejected' || error.failure === 'not-found')
      ) {
        deps.log.warn(
          { marketplace, categoryId, failure: error.failure, messages: error.messages },
          'marketplace refused a category’s attributes',
        )
        throw new AppError(
          'MARKETPLACE_CATEGORY_NOT_LEAF',
          'The marketplace takes no products in this category',
        )
      }
      return ask(marketplace, 'attributes', () => Promise.reject(error))
    }
  }

  return {
    /** Categories whose path has every word of `query` (Turkish or folded), best first. */
    async search(
      userId: string,
      marketplace: IntegrationMarketplace,
      query: string,
    ): Promise<CategorySearchResponse> {
      const list = await categoryList(await clientFor(userId, marketplace))
      return {
        categories: searchCategories(list.index, query, categorySearchLimit).map((c) => ({
          marketplace,
          ...c,
        })),
        fetchedAt: list.fetchedAt.toISOString(),
      }
    },

    /** One category by its id; null when the marketplace's list has no such category. */
    async category(
      userId: string,
      marketplace: IntegrationMarketplace,
      categoryId: string,
    ): Promise<MarketplaceCategory | null> {
      const found = (await categoryList(await clientFor(userId, marketplace))).byId.get(categoryId)
      return found ? { marketplace, ...found } : null
    },

    /** A leaf category's attributes with their allowed values, cached like the list. */
    async attributes(
      userId: string,
      marketplace: IntegrationMarketplace,
      categoryId: string,
    ): Promise<CategoryAttributesResponse> {
      const client = await clientFor(userId, marketplace)
      const found = (await categoryList(client)).byId.get(categoryId)
      if (!found) throw new AppError('NOT_FOUND', 'No such category')
      if (!found.isLeaf) throw new AppError('MARKETPLACE_CATEGORY_NOT_LEAF', 'A category with subcategories')
      const category = { marketplace, ...found }
      const where = and(
        eq(marketplaceCategoryAttributes.marketplace, marketplace),
        eq(marketplaceCategoryAttributes.categoryId, categoryId),
      )
      const [row] = await deps.db.select().from(marketplaceCategoryAttributes).where(where)
      const kept = row
        ? { category, attributes: row.attributes, fetchedAt: row.fetchedAt.toISOString() }
        : null
      if (row && kept && isFresh(row.fetchedAt)) return kept
      try {
        return await once(`attributes ${marketplace} ${categoryId}`, async () => {
          const attributes = await readAttributes(client, categoryId)
          const fetchedAt = deps.now()
          await deps.db
            .insert(marketplaceCategoryAttributes)
            .values({ marketplace, categoryId, attributes, fetchedAt })
            .onConflictDoUpdate({
              target: [marketplaceCategoryAttributes.marketplace, marketplaceCategoryAttributes.categoryId],
              set: { attributes, fetchedAt },
            })
          return { category, attributes, fetchedAt: fetchedAt.toISOString() }
        })
      } catch (error) {
        // As with the list: an older answer beats none while the marketplace is busy or down.
        if (kept && isTransient(error)) return kept
        throw error
      }
    },

    /**
     * Reads the category list again now, and forgets every cached category's attributes (each is
     * read again when next asked for): for a seller who knows the marketplace changed.
     */
    async refresh(userId: string, marketplace: IntegrationMarketplace): Promise<TaxonomyRefreshResponse> {
      const list = await categoryList(await clientFor(userId, marketplace), true)
      await deps.db
        .delete(marketplaceCategoryAttributes)
        .where(eq(marketplaceCategoryAttributes.marketplace, marketplace))
      return { marketplace, categoryCount: list.byId.size, fetchedAt: list.fetchedAt.toISOString() }
    },

    /**
     * Trendyol's brands whose name contains the query. Trendyol matches case-sensitively, so a
     * query typed in lower case is also asked capitalised the Turkish way ("kütahya" →
     * "Kütahya", "KÜTAHYA"). Hepsiburada has no brand lookup: its "Marka" is free text.
     */
    async brands(userId: string, query: string): Promise<MarketplaceBrand[]> {
      const client = await clientFor(userId, 'trendyol')
      if (client.marketplace !== 'trendyol') throw new AppError('INTERNAL')
      const name = query.trim()
      const now = deps.now().getTime()
      const kept = brandMemo.get(name)
      if (kept && now - kept.at < brandMemoMs) return kept.brands
      const spellings = brandSpellings(name)
      const byId = new Map<string, MarketplaceBrand>()
      for (const spelling of spellings) {
        const found = await ask('trendyol', 'brands', () => client.api.brandsByName(spelling))
        for (const brand of found) byId.set(String(brand.id), { id: String(brand.id), name: brand.name })
        if (byId.size >= brandSearchLimit) break
      }
      const brands = [...byId.values()].slice(0, brandSearchLimit)
      setNewest(brandMemo, name, { at: now, brands }, brandMemoEntries)
      return brands
    },
  }
}

/** A failure worth waiting out: the marketplace's rate limit, or the marketplace down. */
function isTransient(error: unknown): boolean {
  return (
    error instanceof AppError &&
    (error.code === 'MARKETPLACE_BUSY' || error.code === 'MARKETPLACE_UNAVAILABLE')
  )
}
