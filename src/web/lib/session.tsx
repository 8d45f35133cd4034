import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react'
import type { SessionResponse, SessionUser } from '#shared/contracts/auth.ts'
import { apiRequest, setUnauthorizedHandler } from './api-client.ts'

export type SessionState =
  | { status: 'loading'; user: null }
  | { status: 'signed-in'; user: SessionUser }
  | { status: 'signed-out'; user: null }

export type Session = SessionState & {
  /** Asks the server again (after sign-in, sign-out, or a 401). */
  refresh: () => Promise<void>
  /** Adopts the user a sign-in or sign-up call answered with, without another request. */
  setUser: (user: SessionUser | null) => void
  /**
   * Ends the session on the server, then forgets the user and runs `then` (usually a navigation)
   * in one transition, so a guarded page never redraws signed-out before the navigation lands.
   */
  signOut: (then?: () => void) => Promise<void>
}

const SessionContext = createContext<Session | null>(null)

/** Knows who is signed in, from the server (the session cookie is httpOnly). */
export function SessionProvider(props: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading', user: null })

  const setUser = useCallback((user: SessionUser | null) => {
    setState(user ? { status: 'signed-in', user } : { status: 'signed-out', user: null })
  }, [])

  const refresh = useCallback(async () => {
    try {
      const response = await apiRequest<SessionResponse>('/api/session')
      setUser(response.user)
    } catch {
      // Unreachable server: treat as signed out; guarded pages send the user to /access.
      setUser(null)
    }
  }, [setUser])

  const signOut = useCallback(
    async (then?: () => void) => {
      await apiRequest('/api/auth/sign-out', { method: 'POST', body: {} }).catch(() => undefined)
      startTransition(() => {
        setUser(null)
        then?.()
      })
    },
    [setUser],
  )

  useEffect(() => {
    void refresh()
  }, [refresh])

  // Any call answered 401 means the session ended elsewhere (a password change, expiry): ask
  // again, and the page guard sends a signed-out user to /access.
  useEffect(() => {
    setUnauthorizedHandler(refresh)
    return () => setUnauthorizedHandler(null)
  }, [refresh])

  const value = useMemo<Session>(
    () => ({ ...state, refresh, setUser, signOut }),
    [state, refresh, setUser, signOut],
  )
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>
}

export function useSession(): Session {
  const value = useContext(SessionContext)
  if (!value) throw new Error('useSession must be used inside <SessionProvider>')
  return value
}
