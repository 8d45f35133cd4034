import { useEffect } from 'react'

/** Sets the tab title to "<page> · Vitrin" while the page is shown. */
export function useDocumentTitle(pageTitle: string | undefined) {
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · Vitrin` : 'Vitrin'
  }, [pageTitle])
}
