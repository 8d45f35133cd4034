import { useEffect, useId, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { href } from '#web/lib/href.ts'
import { useI18n } from '#web/lib/i18n.tsx'
import { useLocalizedHref } from '#web/lib/localized-paths.ts'
import { useSession } from '#web/lib/session.tsx'

/** The signed-in user's menu: who is signed in, Settings, Billing, Sign Out. Closes on Escape or outside click. */
export function UserMenu() {
  const { t } = useI18n()
  const session = useSession()
  const navigate = useNavigate()
  const localized = useLocalizedHref()
  const [isOpen, setOpen] = useState(false)
  const menuId = useId()
  const rootRef = useRef<HTMLDivElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!isOpen) return
    const handlePointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    const handleKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false)
        buttonRef.current?.focus()
      }
    }
    document.addEventListener('pointerdown', handlePointer)
    document.addEventListener('keydown', handleKey)
    return () => {
      document.removeEventListener('pointerdown', handlePointer)
      document.removeEventListener('keydown', handleKey)
    }
  }, [isOpen])

  if (session.status !== 'signed-in') return null
  const { user } = session
  const label = user.isBeta ? t('common.nav.betaAccount') : (user.email ?? '')
  const initial = (user.email?.[0] ?? 'B').toUpperCase()

  async function handleSignOut() {
    setOpen(false)
    await session.signOut(() => navigate(localized('/'), { replace: true }))
  }

  const itemClass =
    'block w-full rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100'
  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="true"
        aria-expanded={isOpen}
        aria-controls={menuId}
        aria-label={t('common.nav.userMenu')}
        onClick={() => setOpen((open) => !open)}
        className="inline-flex size-9 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white hover:bg-brand-800"
      >
        {initial}
      </button>
      {isOpen ? (
        <div
          id={menuId}
          className="absolute right-0 z-50 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-lg"
        >
          <p className="truncate px-3 py-2 text-xs text-slate-600" title={label}>
            {user.isBeta ? label : t('common.nav.signedInAs', { email: label })}
          </p>
          <ul className="border-t border-slate-100 pt-1">
            <li>
              <Link to={href('settings')} className={itemClass} onClick={() => setOpen(false)}>
                {t('common.nav.settings')}
              </Link>
            </li>
            <li>
              <Link to={href('billing')} className={itemClass} onClick={() => setOpen(false)}>
                {t('common.nav.billing')}
              </Link>
            </li>
            <li>
              <button type="button" className={itemClass} onClick={() => void handleSignOut()}>
                {t('common.nav.signOut')}
              </button>
            </li>
          </ul>
        </div>
      ) : null}
    </div>
  )
}
