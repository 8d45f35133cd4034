// Runs before first paint on the pages the build does not prerender (the signed-in app, and
// every page under the dev server): applies the language to <html lang> so text and Turkish
// casing (İ/ı) render right from the first frame. A /tr/ address is Turkish; otherwise the
// remembered language, else the browser's.
;(() => {
  const supported = ['en', 'tr']
  const path = window.location.pathname
  let remembered = null
  try {
    remembered = window.localStorage.getItem('vitrin.lang')
  } catch {
    remembered = null
  }
  let lang = remembered
  if (path === '/tr' || path.indexOf('/tr/') === 0) lang = 'tr'
  if (!supported.includes(lang)) {
    const preferred = (navigator.language || 'en').slice(0, 2).toLowerCase()
    lang = supported.includes(preferred) ? preferred : 'en'
  }
  document.documentElement.lang = lang
  // A choice remembered before the server could read it: the server redirects English public
  // addresses by this cookie.
  if (remembered === lang && document.cookie.indexOf('vitrin_lang=') === -1) {
    // biome-ignore lint/suspicious/noDocumentCookie: a classic script before first paint; the Cookie Store API is async and not everywhere
    document.cookie = `vitrin_lang=${lang}; path=/; max-age=31536000; samesite=lax`
  }
})()
