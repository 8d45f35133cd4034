import { Link } from 'react-router'
import type { TKey } from '#shared/i18n/messages.ts'
import { Container } from '#web/components/ui/container.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useLocalizedHref } from '#web/lib/localized-paths.ts'
import { Logo } from './logo.tsx'

const columns: { title: TKey; links: { to: string; label: TKey }[] }[] = [
  {
    title: 'common.footer.product',
    links: [
      { to: href('features'), label: 'common.footer.features' },
      { to: href('pricing'), label: 'common.footer.pricing' },
      { to: href('faq'), label: 'common.footer.faq' },
    ],
  },
  {
    title: 'common.footer.company',
    links: [
      { to: href('about'), label: 'common.footer.about' },
      { to: href('contact'), label: 'common.footer.contact' },
    ],
  },
  {
    title: 'common.footer.legal',
    links: [
      { to: href('privacy'), label: 'common.footer.privacy' },
      { to: href('terms'), label: 'common.footer.terms' },
    ],
  },
]

/** The footer on every page. */
export function SiteFooter() {
  const { t } = useI18n()
  const localized = useLocalizedHref()
  return (
    <footer className="mt-auto border-t border-slate-200 bg-slate-50">
      <Container className="grid gap-10 py-12 md:grid-cols-4">
        <div>
          <Logo className="text-brand-950" />
          <p className="mt-3 text-sm text-slate-600">{t('common.footer.madeFor')}</p>
        </div>
        {columns.map((column) => (
          <nav key={column.title} aria-label={t(column.title)}>
            <h2 className="text-sm font-semibold text-slate-900">{t(column.title)}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={localized(link.to)}
                    className="rounded text-sm text-slate-600 hover:text-brand-700 hover:underline"
                  >
                    {t(link.label)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </Container>
      <div className="border-t border-slate-200">
        <Container className="py-6 text-sm text-slate-600">
          {t('common.footer.rights', { year: String(new Date().getFullYear()) })}
        </Container>
      </div>
    </footer>
  )
}
