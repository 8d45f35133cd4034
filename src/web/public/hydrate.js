// Starts the app on a prerendered public page once that page has painted. The page is readable
// without any script, so its scripts wait for the first paint instead of competing with it for a
// slow connection; they are then all requested at once, in parallel (the entry and the modules
// the page needs, listed by the build in data-entry and data-preload: scripts/lib/prerender.ts).
;(() => {
  const script = document.currentScript
  // The page is on its way to its address in the visitor's language (scripts/lib/prerender.ts).
  if (!script || document.documentElement.hasAttribute('data-leaving')) return
  const entry = script.dataset.entry
  const preloads = (script.dataset.preload || '').split(' ').filter(Boolean)
  let started = false
  const start = () => {
    if (started) return
    started = true
    for (const href of preloads) {
      const link = document.createElement('link')
      link.rel = 'modulepreload'
      link.crossOrigin = ''
      link.href = href
      document.head.appendChild(link)
    }
    const module = document.createElement('script')
    module.type = 'module'
    module.crossOrigin = ''
    module.src = entry
    document.head.appendChild(module)
  }
  // A task queued from an animation frame runs after that frame is painted. A page opened in a
  // background tab paints no frame until shown: the timer starts it anyway.
  requestAnimationFrame(() => setTimeout(start, 0))
  setTimeout(start, 1000)
})()
