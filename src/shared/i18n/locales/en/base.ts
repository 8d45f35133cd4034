import common from './common.json'
import errors from './errors.json'
import landing from './landing.json'
import plans from './plans.json'
import pricing from './pricing.json'

/** What the landing page needs to render; the web app loads the rest right after (see web/lib/i18n.tsx). */
export const enBaseMessages = { common, errors, landing, plans, pricing }
