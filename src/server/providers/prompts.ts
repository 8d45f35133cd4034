import { englishPromptFor } from '#shared/scene-prompts.ts'
import type { ViewChoice } from '#shared/scenes.ts'
import type { ProductDetails } from '#shared/seo.ts'
import { seoLimits } from '#shared/seo.ts'
import { describeSeoProblem, type SeoProblem } from './seo-problems.ts'

// Prompt building shared by the AI providers. Pure functions, so the engine can also rebuild
// "the prompt used" for a request that was resumed after a restart (see buildImagePrompt).

/** Collapses whitespace and drops trailing punctuation, so our suffixes join cleanly. */
function cleanUserText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.,;:!]+$/, '')
}

/** Scene used when the seller gives no prompt: a white studio, as in the first of #shared/scenes.ts. */
export const defaultProductScene = 'clean white studio background'
/** Style used in the fashion tool when the seller gives no prompt. */
export const defaultFashionStyle = 'minimalist studio'

export type ImagePromptInput = {
  tool: 'product' | 'fashion'
  prompt: string
  /** Fashion only: a reference photo is sent as the second image. */
  hasReference: boolean
  /**
   * Product only: the view the seller chose. `top` or `front` adds a camera hint; `auto` (or
   * absent) adds nothing and leaves the angle to the model, which follows the photo (decision 42).
   */
  view?: ViewChoice | undefined
}

/** The camera hint a chosen view adds to a product prompt. */
const viewHints: Record<ViewChoice, string> = {
  auto: '',
  top: ' Seen from directly above: the surface fills the frame, no wall or horizon.',
  front: ' Front view at eye level: the product stands on the surface with the wall behind it.',
}

/**
 * The instruction sent to the image-edit model. Product photos are wrapped as a
 * professional e-commerce shot; the fashion tool either dresses the reference's model in the
 * garment (keeping its pose, light and background) or has a model wear it in the given style.
 */
export function buildImagePrompt(input: ImagePromptInput): string {
  // A suggestion chip writes its prompt in the seller's language; the model gets it in English.
  const userText = cleanUserText(englishPromptFor(input.prompt))
  if (input.tool === 'fashion') {
    if (input.hasReference) {
      const style = userText ? ` Style: ${userText}.` : ''
      return (
        'Dress the model from the second image in the garment from the first image. ' +
        "Keep the second image's model, pose, lighting and background exactly as they are. " +
        "Reproduce the garment's colour, fabric, pattern, cut and details faithfully, with a natural fit." +
        style +
        ' Photorealistic, professional fashion photography.'
      )
    }
    const style = userText || defaultFashionStyle
    return (
      `Professional fashion photo of a model wearing the garment from the image, ${style} style. ` +
      "Reproduce the garment's colour, fabric, pattern, cut and details faithfully, with a natural fit. " +
      'Photorealistic, flattering light, sharp focus.'
    )
  }
  const scene = userText || defaultProductScene
  return (
    `Professional e-commerce product photo: place the product on a ${scene}. ` +
    'Keep the product itself unchanged (shape, colours, labels, logos and text). ' +
    'Studio-quality lighting, realistic shadows and reflections, sharp focus, clean composition.' +
    viewHints[input.view ?? 'auto']
  )
}

/** Used when the seller gives no animation prompt: a slow turn around the product. */
export const defaultVideoPrompt =
  'Slow, smooth 360-degree rotation around the product, steady camera, soft studio lighting, ' +
  'professional product showcase.'

/** The animation prompt sent to the image-to-video model: the seller's text, or the default above. */
export function buildVideoPrompt(prompt: string): string {
  const userText = cleanUserText(prompt)
  if (!userText) return defaultVideoPrompt
  return `${userText}. Smooth and professional camera movement, high quality, no text overlays.`
}

const detailLabels: Record<keyof ProductDetails, string> = {
  name: 'Ürün adı',
  category: 'Kategori',
  brand: 'Marka',
  material: 'Malzeme',
  color: 'Renk',
  description: 'Satıcının açıklaması',
  features: 'Öne çıkan özellikler',
}

/** The seller's typed details as Turkish context lines, or '' when none were given. */
export function describeProductDetails(details: ProductDetails): string {
  const lines = (Object.keys(detailLabels) as Array<keyof ProductDetails>).flatMap((key) => {
    const raw = details[key]
    const value = (Array.isArray(raw) ? raw.join('; ') : raw)?.replace(/\s+/g, ' ').trim()
    return value ? [`- ${detailLabels[key]}: ${value}`] : []
  })
  return lines.length > 0 ? `Satıcının verdiği ürün bilgileri:\n${lines.join('\n')}` : ''
}

/**
 * The seller's facts as fixed rules: each appears unchanged where it belongs and nothing
 * contradicts it (the same rules as shared/seo-facts.ts checks the answer against), or '' when
 * the seller gave none.
 */
export function describeFixedFacts(details: ProductDetails): string {
  const given = (text: string | undefined) => Boolean(text?.trim())
  const features = (details.features ?? []).filter(given)
  const rules: string[] = []
  if (given(details.name)) rules.push('- Ürün adını başlıkta aynen, yazıldığı gibi kullan.')
  if (given(details.brand) || given(details.material)) {
    rules.push('- Markayı ve malzemeyi başlıkta ya da özelliklerde aynen kullan.')
  }
  if (given(details.color)) {
    rules.push(
      `- Renk "${details.color?.trim()}": başlıkta ya da özelliklerde aynen geçsin. Fotoğrafta başka bir renk görsen ` +
        'bile renk adı olarak yalnızca satıcının kendi sözlerindeki renkleri kullan; başka renk adı yazma.',
    )
  }
  if (features.length > 0)
    rules.push('- Satıcının her özelliğini "features" içinde aynen, kendi satırında kullan.')
  if (given(details.description)) {
    rules.push('- Meta açıklama, satıcının açıklamasının ilk cümlesini aynen içersin.')
  }
  if (rules.length === 0) return ''
  return [
    'Satıcının verdiği bilgiler kesindir: hepsi metinde değiştirilmeden geçmeli ve hiçbiri çelişilmemeli.',
    ...rules,
  ].join('\n')
}

/**
 * The Turkish instruction for the vision model. It always spells out the JSON shape
 * and the limits, because compatible servers that ignore `response_format` only have the prompt.
 * A second attempt names what was wrong with the first answer (`problems`), or repeats the
 * limits when the first answer could not be read at all.
 */
export function buildSeoPrompt(
  details: ProductDetails,
  options: { isRetry?: boolean; problems?: readonly SeoProblem[] } = {},
): string {
  const parts = [
    'Fotoğraftaki ürün için Türkçe bir e-ticaret SEO içeriği hazırla (Trendyol, Hepsiburada, n11 gibi pazaryerleri için).',
    'Yanıtı yalnızca aşağıdaki alanları içeren tek bir JSON nesnesi olarak ver, başka metin ekleme:',
    `- "title": ürün başlığı, en fazla ${seoLimits.titleMax} karakter`,
    `- "description": meta açıklama, en fazla ${seoLimits.descriptionMax} karakter`,
    `- "features": ${seoLimits.featuresMin}-${seoLimits.featuresMax} kısa ürün özelliği (dizi)`,
    `- "keywords": tam olarak ${seoLimits.keywords} farklı anahtar kelime (dizi)`,
    'Fotoğrafta görmediğin veya satıcının vermediği bilgileri uydurma.',
    'Anahtar kelimeler gerçek arama ifadeleri olsun: virgül, noktalı virgül ya da kategori yolu (">") içermesin.',
    '"Hemen", "indirim", "ücretsiz kargo" gibi tanıtım ifadeleri kullanma.',
  ]
  const context = describeProductDetails(details)
  if (context) parts.push('', context)
  const fixed = describeFixedFacts(details)
  if (fixed) parts.push('', fixed)
  const problems = options.problems ?? []
  if (problems.length > 0) {
    parts.push(
      '',
      'Önemli: önceki yanıt kurallara uymadı. Şunları düzelt:',
      ...problems.map((problem) => `- ${describeSeoProblem(problem)}`),
    )
  } else if (options.isRetry) {
    parts.push(
      '',
      `Önemli: önceki yanıt kurallara uymadı. Sınırlara tam uy: başlık ≤ ${seoLimits.titleMax}, ` +
        `açıklama ≤ ${seoLimits.descriptionMax} karakter, ${seoLimits.featuresMin}-${seoLimits.featuresMax} özellik, ` +
        `tam ${seoLimits.keywords} farklı anahtar kelime.`,
    )
  }
  return parts.join('\n')
}

/** An attribute as the chooser's prompt lists it: the key its answer goes under, and its values. */
export type PromptAttribute = {
  key: string
  name: string
  isMultiple: boolean
  values: readonly { id: string; name: string }[]
}

/**
 * The Turkish instruction for the attribute chooser (a vision model picking marketplace
 * attribute values from the photo). It names every allowed value with its id, because the
 * schema's enums carry only ids, and spells out the answer's shape for servers that ignore
 * `response_format`. Not knowing is an answer (null, or an empty list): a guess would reach
 * the listing as if the photo had shown it.
 */
export function buildAttributePrompt(
  attributes: readonly PromptAttribute[],
  product: { name?: string | undefined; category?: string | undefined } = {},
): string {
  const parts = [
    'Fotoğraftaki ürüne bak ve aşağıdaki pazaryeri özelliklerinin her biri için izin verilen değerler arasından fotoğrafta açıkça görüleni seç.',
    'Yanıtı yalnızca tek bir JSON nesnesi olarak ver, başka metin ekleme. Anahtarlar özelliklerin kimlikleridir; değer olarak yalnızca o özelliğin listesindeki değer kimliklerini yaz.',
    '- Tek değerli özellik: bir değer kimliği (metin), fotoğraftan anlaşılmıyorsa null.',
    '- Çok değerli özellik: değer kimliklerinden oluşan bir dizi, fotoğraftan anlaşılmıyorsa boş dizi.',
    'Tahmin etme: fotoğrafta görmediğin ya da emin olmadığın bir özellik için null ya da boş dizi yaz.',
  ]
  const name = product.name ? cleanUserText(product.name) : ''
  const category = product.category ? cleanUserText(product.category) : ''
  if (name || category) {
    parts.push('')
    if (name) parts.push(`Satıcının verdiği ürün adı: ${name}`)
    if (category) parts.push(`Kategori: ${category}`)
  }
  parts.push('', 'Özellikler:')
  for (const attribute of attributes) {
    const kind = attribute.isMultiple ? 'bir ya da birkaç değer' : 'tek değer'
    const values = attribute.values.map((value) => `${JSON.stringify(value.id)} = ${value.name}`).join('; ')
    parts.push(`- ${JSON.stringify(attribute.key)}: ${cleanUserText(attribute.name)} (${kind}): ${values}`)
  }
  return parts.join('\n')
}
