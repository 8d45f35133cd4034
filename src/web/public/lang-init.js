// Runs before first paint: applies the remembered language to <html lang> so
// text and Turkish casing (İ/ı) render right from the first frame.
;(() => {
  const supported = ['en', 'tr']
  let lang = null
  try {
    lang = window.localStorage.getItem('vitrin.lang')
  } catch {
    lang = null
  }
  if (!supported.includes(lang)) {
    const preferred = (navigator.language || 'en').slice(0, 2).toLowerCase()
    lang = supported.includes(preferred) ? preferred : 'en'
  }
  document.documentElement.lang = lang
})()
