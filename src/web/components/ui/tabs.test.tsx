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

/** Tabs whose selection a button outside them can change. */
function Outside() {
  const [selected, setSelected] = useState<'one' | 'two' | 'three'>('one')
  return (
    <>
      <button type="button" onClick={() => setSelected('three')}>
        Open three
      </button>
      <Tabs idPrefix="t" label="Sections" tabs={items} selected={selected} onSelect={setSelected}>
        <p>Panel {selected}</p>
      </Tabs>
    </>
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

  it('makes the tab moved to the Tab stop at once, so Tab goes on to the panel before the selection catches up', async () => {
    const user = userEvent.setup()
    // The selection stays on Three (it follows the address, which lags): Home moves to One.
    await renderWeb(
      <>
        <Tabs idPrefix="t" label="Sections" tabs={items} selected="three" onSelect={() => undefined}>
          <p>Panel</p>
        </Tabs>
        <button type="button">After</button>
      </>,
    )
    const tab = (name: string) => screen.getByRole('tab', { name })
    tab('Three').focus()
    await user.keyboard('{Home}')
    expect(document.activeElement).toBe(tab('One'))
    expect(items.map((item) => tab(item.label).tabIndex)).toEqual([0, -1, -1])
    await user.tab()
    expect(document.activeElement).toBe(screen.getByRole('tabpanel'))
  })

  it('follows a selection made from outside (a link, the address) for its Tab stop', async () => {
    const user = userEvent.setup()
    await renderWeb(<Outside />)
    await user.click(screen.getByRole('button', { name: 'Open three' }))
    const tab = (name: string) => screen.getByRole('tab', { name })
    expect(items.map((item) => tab(item.label).tabIndex)).toEqual([-1, -1, 0])
  })
})
