import type { TKey } from '#shared/i18n/messages.ts'
import type { MessageVars } from '#shared/i18n/translate.ts'

type Translate = (key: TKey, vars?: MessageVars) => string

/** The time left in words: under a minute, whole minutes, or hours and minutes (rounded up). */
export function formatEta(t: Translate, seconds: number): string {
  if (seconds < 60) return t('catalogue.batch.eta.underMinute')
  const minutes = Math.ceil(seconds / 60)
  if (minutes < 60) return t('catalogue.batch.eta.minutes', { minutes })
  return t('catalogue.batch.eta.hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 })
}

/** "1 product" or "12 products": English needs the two forms, Turkish writes both alike. */
export function countText(t: Translate, count: number, one: TKey, other: TKey): string {
  return t(count === 1 ? one : other, { count })
}
