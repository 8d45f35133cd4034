import type { CachedMarketplaceCategory } from '#server/db/schema/index.ts'
import type { MarketplaceAttribute } from '#shared/contracts/publishing.ts'
import type { HepsiburadaApi, HepsiburadaAttribute, HepsiburadaCategory } from './hepsiburada-api.ts'
import type { TrendyolApi, TrendyolCategory } from './trendyol-api.ts'

// Each marketplace's categories and a category's attributes, read through its client and put in
// the shared shapes (a flat list with paths; attributes with their allowed values), for the
// taxonomy service (taxonomy.service.ts) to cache and search.

/** Trendyol asks one request per attribute for its values: a few at once, well inside its burst limit. */
const valueReadsAtOnce = 4

/** Trendyol's tree, flattened root first, each category with its path; a leaf has no subcategories. */
export function flattenTrendyol(tree: TrendyolCategory[]): CachedMarketplaceCategory[] {
  const out: CachedMarketplaceCategory[] = []
  // An explicit stack: the real tree is deep enough and wide enough not to recurse per node.
  const stack: { node: TrendyolCategory; parentPath: string[] }[] = tree
    .map((node) => ({ node, parentPath: [] as string[] }))
    .reverse()
  while (stack.length > 0) {
    const next = stack.pop()
    if (!next) break
    const { node, parentPath } = next
    const path = [...parentPath, node.name]
    const children = node.subCategories ?? []
    out.push({ id: String(node.id), name: node.name, path, isLeaf: children.length === 0 })
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i]
      if (child) stack.push({ node: child, parentPath: path })
    }
  }
  return out
}

/**
 * Hepsiburada's active categories with their paths: the `paths` it sends, or else the chain of
 * parents as far as they are known. A leaf that is not `available` takes no products and has no
 * subcategories, so it is left out.
 */
export function hepsiburadaCategories(rows: HepsiburadaCategory[]): CachedMarketplaceCategory[] {
  const byId = new Map(rows.map((row) => [row.categoryId, row]))
  const pathOf = (row: HepsiburadaCategory): string[] => {
    if (Array.isArray(row.paths) && row.paths.length > 0 && row.paths.every((p) => typeof p === 'string')) {
      return row.paths.at(-1) === row.name ? row.paths : [...row.paths, row.name]
    }
    const path = [row.name]
    const seen = new Set([row.categoryId])
    let parent = row.parentCategoryId == null ? undefined : byId.get(row.parentCategoryId)
    while (parent && !seen.has(parent.categoryId)) {
      seen.add(parent.categoryId)
      path.unshift(parent.name)
      parent = parent.parentCategoryId == null ? undefined : byId.get(parent.parentCategoryId)
    }
    return path
  }
  return rows
    .filter((row) => !row.leaf || row.available)
    .map((row) => ({ id: String(row.categoryId), name: row.name, path: pathOf(row), isLeaf: row.leaf }))
}

export async function trendyolAttributes(
  api: TrendyolApi,
  categoryId: number,
): Promise<MarketplaceAttribute[]> {
  const definitions = await api.categoryAttributes(categoryId)
  const attributes: MarketplaceAttribute[] = definitions.map((d) => ({
    id: String(d.attribute.id),
    name: d.attribute.name,
    isRequired: d.required,
    isMultiple: d.allowMultipleAttributeValues ?? false,
    allowsCustom: d.allowCustom,
    values: [],
  }))
  await inBatches(attributes, valueReadsAtOnce, async (attribute) => {
    const values = await api.attributeValues(categoryId, Number(attribute.id))
    attribute.values = values.map((v) => ({ id: String(v.attributeValueId), name: v.attributeValue }))
  })
  return attributes
}

export async function hepsiburadaAttributes(
  api: HepsiburadaApi,
  categoryId: number,
): Promise<MarketplaceAttribute[]> {
  const answer = await api.categoryAttributes(categoryId)
  const all: HepsiburadaAttribute[] = [
    ...answer.baseAttributes,
    ...answer.attributes,
    ...answer.variantAttributes,
  ]
  const attributes: MarketplaceAttribute[] = all.map((a) => ({
    id: a.id,
    name: a.name,
    isRequired: a.mandatory,
    isMultiple: a.multiValue,
    // Only an enum attribute has a list; any other type (text, a number) is typed by the seller.
    allowsCustom: a.type !== 'enum',
    values: [],
  }))
  await inBatches(
    attributes.filter((a) => !a.allowsCustom),
    valueReadsAtOnce,
    async (attribute) => {
      // Hepsiburada's values have no id the import uses: the value is sent by its name.
      const values = await api.attributeValues(categoryId, attribute.id)
      attribute.values = values.map((value) => ({ id: value, name: value }))
    },
  )
  return attributes
}

/** Runs `work` on every item, at most `size` at once. */
async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]
      if (item !== undefined) await work(item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker))
}
