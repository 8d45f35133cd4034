import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { Tabs } from './tabs.tsx'

const items = [
  { id: 'one', label: 'One' },
  { id: 'two', label: 'Two' },
  { id: 'three', label: 'Three' },
] as const

function Harness() {
  const [selected, setSelected] = useState<'one' | 'two' | 'three'>('one')
  return (
    <Tabs idPrefix="t" label="Sections" tabs={items} selected={selected} onSelect={setSelected}>
      <p>Panel {selected}</p>
    </Tabs>
  )
}

describe('Tabs', () => {
  it('wires tabs to their panel and moves with the arrow keys, Home and End', async () => {
    const user = userEvent.setup()
    await renderWeb(<Harness />)
    expect(screen.getByRole('tablist', { name: 'Sections' })).toBeTruthy()
    const tab = (name: string) => screen.getByRole('tab', { name })
    expect(tab('One').getAttribute('aria-selected')).toBe('true')
    expect(tab('Two').tabIndex).toBe(-1)
    expect(screen.getByRole('tabpanel', { name: 'One' }).textContent).toBe('Panel one')

    tab('One').focus()
    await user.keyboard('{ArrowRight}')
    expect(document.activeElement).toBe(tab('Two'))
    expect(tab('Two').getAttribute('aria-selected')).toBe('true')
    expect(tab('Two').tabIndex).toBe(0)
    expect(screen.getByRole('tabpanel', { name: 'Two' }).textContent).toBe('Panel two')

    await user.keyboard('{End}')
    expect(document.activeElement).toBe(tab('Three'))
    await user.keyboard('{ArrowRight}')
    expect(document.activeElement).toBe(tab('One'))
    await user.keyboard('{ArrowLeft}')
    expect(document.activeElement).toBe(tab('Three'))
    await user.keyboard('{Home}')
    expect(document.activeElement).toBe(tab('One'))
  })

  it('moves from the focused tab even when the selection has not caught up yet', async () => {
    const user = userEvent.setup()
    const chosen: string[] = []
    // The selection follows the address in the app, which can lag a quick second key press:
    // here it never moves at all.
    await renderWeb(
      <Tabs idPrefix="t" label="Sections" tabs={items} selected="one" onSelect={(id) => chosen.push(id)}>
        <p>Panel</p>
      </Tabs>,
    )
    const tab = (name: string) => screen.getByRole('tab', { name })
    tab('One').focus()
    await user.keyboard('{ArrowRight}{ArrowRight}')
    expect(document.activeElement).toBe(tab('Three'))
    await user.keyboard('{ArrowLeft}')
    expect(document.activeElement).toBe(tab('Two'))
    expect(chosen).toEqual(['two', 'three', 'two'])
  })
})
