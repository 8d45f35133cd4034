import common from './common.json'
import landing from './landing.json'
import plans from './plans.json'
import pricing from './pricing.json'

/**
 * What the landing page needs to render; the web app loads the rest right after (see
 * web/lib/i18n.tsx). Error messages are not here: the landing shows none before the rest arrives,
 * and they were 4 KB of its 100 KB of JavaScript.
 */
export const enBaseMessages = { common, landing, plans, pricing }
