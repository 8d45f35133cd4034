import { useEffect, useState } from 'react'
import { Link, NavLink, useLocation, useNavigate } from 'react-router'
import type { TKey } from '#shared/i18n/messages.ts'
import { ButtonLink } from '#web/components/ui/button.tsx'
import { Container } from '#web/components/ui/container.tsx'
import { CrossIcon, MenuIcon } from '#web/components/ui/icons.tsx'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useLocalizedHref } from '#web/lib/localized-paths.ts'
import { useSession } from '#web/lib/session.tsx'
import { LanguageSelect } from './language-select.tsx'
import { Logo } from './logo.tsx'
import { UserMenu } from './user-menu.tsx'

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'text-brand-700' : 'text-slate-700 hover:text-slate-900'}`

type NavItem = { to: string; label: TKey; end?: boolean }

/** The signed-in seller's places: the dashboard, the tools, the catalogue and the library. */
const appLinks: NavItem[] = [
  { to: href('dashboard'), label: 'common.nav.dashboard', end: true },
  { to: href('create'), label: 'common.nav.create' },
  { to: href('fashion'), label: 'common.nav.fashion' },
  { to: href('catalogue'), label: 'common.nav.catalogue' },
  { to: href('library'), label: 'common.nav.library' },
]

/** The phone menu's places beyond those: the account's own pages (the user menu has them elsewhere). */
const accountLinks: NavItem[] = [
  { to: href('settings'), label: 'common.nav.settings' },
  { to: href('billing'), label: 'common.nav.billing' },
]

/** What a visitor is shown: the public pages, in the reader's language. */
const publicLinks: NavItem[] = [
  { to: href('features'), label: 'common.nav.features' },
  { to: href('pricing'), label: 'common.nav.pricing' },
]

function NavLinks(props: { items: NavItem[] }) {
  const { t } = useI18n()
  const localized = useLocalizedHref()
  return props.items.map((item) => (
    <NavLink key={item.to} to={localized(item.to)} end={item.end} className={navLinkClass}>
      {t(item.label)}
    </NavLink>
  ))
}

/** The header on every page: brand, navigation, language menu and the way into the app. */
export function SiteHeader() {
  const { t } = useI18n()
  const [isMenuOpen, setMenuOpen] = useState(false)
  const location = useLocation()
  const session = useSession()
  const navigate = useNavigate()
  const isSignedIn = session.status === 'signed-in'
  const localized = useLocalizedHref()

  // A navigation closes the phone menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input
  useEffect(() => {
    setMenuOpen(false)
  }, [location.pathname])

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur">
      <Container className="flex h-16 items-center justify-between gap-4">
        <Link to={localized('/')} className="rounded-md text-brand-950" aria-label={t('common.nav.home')}>
          <Logo />
        </Link>
        <nav aria-label={t('common.nav.main')} className="hidden items-center gap-1 md:flex">
          <NavLinks items={isSignedIn ? appLinks : publicLinks} />
          <LanguageSelect className="mx-2" />
          {isSignedIn ? (
            <UserMenu />
          ) : (
            <ButtonLink to={href('access')} variant="primary">
              {t('common.nav.accessApp')}
            </ButtonLink>
          )}
        </nav>
        <button
          type="button"
          className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
          aria-expanded={isMenuOpen}
          aria-controls="mobile-menu"
          aria-label={isMenuOpen ? t('common.nav.closeMenu') : t('common.nav.openMenu')}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {isMenuOpen ? <CrossIcon className="size-6" strokeWidth={2} /> : <MenuIcon className="size-6" />}
        </button>
      </Container>
      {isMenuOpen ? (
        <nav
          id="mobile-menu"
          aria-label={t('common.nav.main')}
          className="border-t border-slate-200 bg-white md:hidden"
        >
          <Container className="flex flex-col gap-1 py-3">
            <NavLinks items={isSignedIn ? [...appLinks, ...accountLinks] : publicLinks} />
            <div className="flex items-center justify-between gap-3 px-3 py-2">
              <LanguageSelect />
              {isSignedIn ? (
                <button
                  type="button"
                  className="rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
                  onClick={() => void session.signOut(() => navigate(localized('/'), { replace: true }))}
                >
                  {t('common.nav.signOut')}
                </button>
              ) : (
                <ButtonLink to={href('access')} variant="primary">
                  {t('common.nav.accessApp')}
                </ButtonLink>
              )}
            </div>
          </Container>
        </nav>
      ) : null}
    </header>
  )
}
