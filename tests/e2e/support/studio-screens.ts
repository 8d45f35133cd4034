import type { Page } from '@playwright/test'
import { appMsg } from '../app-support.ts'
import type { Lang } from './i18n.ts'

// The Create and Fashion screens as a seller sees them, found by their visible labels in
// either language. Expected text comes from the locale files (appMsg), not from the app.

/**
 * How long an offline studio result may take to appear: the built-in studio really separates
 * the product and paints the scene on the server's cores, which other tests' videos share.
 */
export const offlineResultTimeout = 30_000
/**
 * The same for an offline video: 8 s of 720p from three moving layers takes about 10 s on an
 * idle 2-core machine and several times that while other tests' jobs share it. Tests that make
 * one are marked slow (three times the test timeout).
 */
export const offlineVideoTimeout = 90_000

export function studioScreen(page: Page, lang: Lang = 'en') {
  const m = (key: string, vars?: Record<string, string>) => appMsg(lang, key, vars)
  return {
    m,
    photoInput: page.getByLabel(m('studio.upload.label'), { exact: true }),
    garmentInput: page.getByLabel(m('studio.upload.garmentLabel'), { exact: true }),
    referenceInput: page.getByLabel(m('studio.upload.referenceLabel'), { exact: true }),
    dropTarget: page.getByTestId('product-photo-target'),
    photoError: page.getByTestId('product-photo-error'),
    uploaded: page.getByText(m('studio.upload.uploaded')),
    type: (mode: 'image' | 'video' | 'seo') =>
      page.locator('label').filter({ hasText: m(`studio.type.${mode}`) }),
    ratio: (ratio: '1:1' | '9:16') =>
      page.getByRole('radio', { name: new RegExp(`^${ratio.replace(':', '\\:')}`) }),
    suggestion: (label: string) => page.getByRole('button', { name: label, exact: true }),
    prompt: page.getByLabel(m('studio.prompt.label')),
    generate: page.getByTestId('generate'),
    jobStatus: page.getByTestId('job-status'),
    jobError: page.getByTestId('job-error'),
    resultImage: page.getByTestId('result-image'),
    resultVideo: page.getByTestId('result-video'),
    createVideo: page.getByTestId('create-video'),
    download: page.getByTestId('download-link'),
    save: page.getByTestId('save-button'),
    quotaLeft: page.getByTestId('quota-left'),
    quotaMessage: page.getByTestId('quota-message'),
  }
}
