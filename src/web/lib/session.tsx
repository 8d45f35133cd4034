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
  | { status: 'loading'; user: null; sessionEndsAt: null }
  | {
      status: 'signed-in'
      user: SessionUser
      /**
       * When this session ends unless used again (ISO), as /api/session last said; null until
       * it was asked (a user adopted from a sign-in answer).
       */
      sessionEndsAt: string | null
    }
  | { status: 'signed-out'; user: null; sessionEndsAt: null }

const signedOut: SessionState = { status: 'signed-out', user: null, sessionEndsAt: null }

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

async function askServer(): Promise<SessionState> {
  try {
    const response = await apiRequest<SessionResponse>('/api/session')
    return response.user
      ? { status: 'signed-in', user: response.user, sessionEndsAt: response.sessionEndsAt ?? null }
      : signedOut
  } catch {
    // Unreachable server: treat as signed out; guarded pages send the user to /access.
    return signedOut
  }
}

/** Knows who is signed in, from the server (the session cookie is httpOnly). */
export function SessionProvider(props: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading', user: null, sessionEndsAt: null })

  const setUser = useCallback((user: SessionUser | null) => {
    // The same user (e.g. a beta account that added an email) keeps its known session end.
    setState((current) =>
      user
        ? {
            status: 'signed-in',
            user,
            sessionEndsAt: current.user?.id === user.id ? current.sessionEndsAt : null,
          }
        : signedOut,
    )
  }, [])

  const refresh = useCallback(async () => {
    setState(await askServer())
  }, [])

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

  // The first answer is applied in a transition: on a prerendered page it re-renders what the
  // visitor is already reading (signed in, the header changes), in slices that never block input.
  useEffect(() => {
    void askServer().then((next) => startTransition(() => setState(next)))
  }, [])

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
