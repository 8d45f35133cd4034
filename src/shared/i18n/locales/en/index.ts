import apiKeys from './apiKeys.json'
import app from './app.json'
import auth from './auth.json'
import billing from './billing.json'
import catalogue from './catalogue.json'
import common from './common.json'
import contact from './contact.json'
import emails from './emails.json'
import errors from './errors.json'
import landing from './landing.json'
import marketplaces from './marketplaces.json'
import pages from './pages.json'
import plans from './plans.json'
import pricing from './pricing.json'
import publishing from './publishing.json'
import seo from './seo.json'
import settings from './settings.json'
import studio from './studio.json'
import webhooks from './webhooks.json'

/** All English messages, one namespace per file. */
export const enMessages = {
  apiKeys,
  app,
  auth,
  billing,
  catalogue,
  common,
  contact,
  emails,
  errors,
  landing,
  marketplaces,
  pages,
  plans,
  pricing,
  publishing,
  seo,
  settings,
  studio,
  webhooks,
}
