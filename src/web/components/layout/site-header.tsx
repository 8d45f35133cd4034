import { useEffect, useState } from 'react'
import { Link, NavLink, useLocation, useNavigate } from 'react-router'
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

/** The signed-in seller's places: the dashboard, the tools, the catalogue and the library. */
function AppLinks() {
  const { t } = useI18n()
  return (
    <>
      <NavLink to={href('dashboard')} end className={navLinkClass}>
        {t('common.nav.dashboard')}
      </NavLink>
      <NavLink to={href('create')} className={navLinkClass}>
        {t('common.nav.create')}
      </NavLink>
      <NavLink to={href('fashion')} className={navLinkClass}>
        {t('common.nav.fashion')}
      </NavLink>
      <NavLink to={href('catalogue')} className={navLinkClass}>
        {t('common.nav.catalogue')}
      </NavLink>
      <NavLink to={href('library')} className={navLinkClass}>
        {t('common.nav.library')}
      </NavLink>
    </>
  )
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
          {isSignedIn ? (
            <AppLinks />
          ) : (
            <>
              <NavLink to={localized(href('features'))} className={navLinkClass}>
                {t('common.nav.features')}
              </NavLink>
              <NavLink to={localized(href('pricing'))} className={navLinkClass}>
                {t('common.nav.pricing')}
              </NavLink>
            </>
          )}
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
            {isSignedIn ? (
              <>
                <AppLinks />
                <NavLink to={href('settings')} className={navLinkClass}>
                  {t('common.nav.settings')}
                </NavLink>
                <NavLink to={href('billing')} className={navLinkClass}>
                  {t('common.nav.billing')}
                </NavLink>
              </>
            ) : (
              <>
                <NavLink to={localized(href('features'))} className={navLinkClass}>
                  {t('common.nav.features')}
                </NavLink>
                <NavLink to={localized(href('pricing'))} className={navLinkClass}>
                  {t('common.nav.pricing')}
                </NavLink>
              </>
            )}
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
