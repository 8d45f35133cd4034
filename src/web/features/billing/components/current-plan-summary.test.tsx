import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { CurrentPlanSummary } from './current-plan-summary.tsx'

describe('CurrentPlanSummary without a plan', () => {
  it('asks the user to choose a plan when they can', async () => {
    await renderWeb(<CurrentPlanSummary subscription={null} />)
    expect(screen.getByTestId('current-plan').textContent).toContain('Choose a plan below to start creating.')
  })

  it('sends the user to support instead when the operator sets plans', async () => {
    await renderWeb(<CurrentPlanSummary subscription={null} canChoose={false} />)
    const summary = screen.getByTestId('current-plan')
    expect(summary.textContent).toContain('Our team sets your plan: contact support to start one.')
    expect(summary.textContent).not.toMatch(/choose a plan/i)
  })
})
