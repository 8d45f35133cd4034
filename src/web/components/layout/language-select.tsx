import { useId } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { isLocale, type Locale, locales } from '#shared/i18n/locales.ts'
import { localizedPath, publicPageOf } from '#shared/public-pages.ts'
import { GlobeIcon } from '#web/components/ui/icons.tsx'
import { ensureAllMessages, useI18n } from '#web/lib/i18n.tsx'
import { useHydrated } from '#web/lib/use-hydrated.ts'

/**
 * The language menu: a native select, so it works with keyboard, screen readers and phones alike.
 * On a public page it moves to the same page's URL in the other language (which then switches
 * the text, see useLanguageOfUrl); in the app it switches the text in place.
 */
export function LanguageSelect(props: { className?: string }) {
  const { locale, setLocale, t } = useI18n()
  const id = useId()
  const location = useLocation()
  const navigate = useNavigate()
  // On a prerendered page, a choice made before React takes over would be lost: inert until then.
  const isHydrated = useHydrated()

  const choose = async (next: Locale) => {
    const publicPage = publicPageOf(location.pathname)
    if (!publicPage) return setLocale(next)
    // Loaded first, so the new URL's page shows in its language from its first frame.
    await ensureAllMessages(next)
    await navigate(localizedPath(next, publicPage.page.path) + location.search + location.hash)
  }

  return (
    <div className={`relative inline-flex items-center ${props.className ?? ''}`} inert={!isHydrated}>
      <label htmlFor={id} className="sr-only">
        {t('common.language.label')}
      </label>
      <GlobeIcon className="pointer-events-none absolute left-2.5 size-4 text-slate-500" />
      <select
        id={id}
        value={locale}
        onChange={(event) => {
          const next = event.target.value
          if (isLocale(next)) void choose(next)
        }}
        className="appearance-none rounded-lg border border-slate-300 bg-white py-1.5 pr-3 pl-8 text-sm font-medium text-slate-700 hover:border-slate-400"
      >
        {locales.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`common.language.${l}`)}
          </option>
        ))}
      </select>
    </div>
  )
}
