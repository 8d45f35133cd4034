// Runs before first paint: applies the remembered language to <html lang> so
// text and Turkish casing (İ/ı) render right from the first frame.
;(function () {
  var supported = ['en', 'tr']
  var lang = null
  try {
    lang = window.localStorage.getItem('vitrin.lang')
  } catch (e) {
    lang = null
  }
  if (supported.indexOf(lang) === -1) {
    var nav = (navigator.language || 'en').slice(0, 2).toLowerCase()
    lang = supported.indexOf(nav) === -1 ? 'en' : nav
  }
  document.documentElement.lang = lang
})()
