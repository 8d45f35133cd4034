import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react'

export type TabItem<T extends string> = { id: T; label: string }

/**
 * Tabs after the WAI-ARIA pattern: one Tab stop for the list, Arrow keys (and Home/End) move
 * to and select the neighbouring tab, the panel is labelled by its tab and focusable.
 */
export function Tabs<T extends string>(props: {
  idPrefix: string
  label: string
  tabs: readonly TabItem<T>[]
  selected: T
  onSelect: (id: T) => void
  children: ReactNode
}) {
  const { idPrefix, tabs, selected } = props
  const tabRefs = useRef(new Map<T, HTMLButtonElement>())
  // The Tab stop: the tab last moved to or clicked, at once, and the selection whenever it
  // changes. The selection follows the address, which can lag behind a key press; were the Tab
  // stop to wait for it, a Tab pressed meanwhile would go to the previous tab, not the panel.
  const [tabStop, setTabStop] = useState(selected)
  const [lastSelected, setLastSelected] = useState(selected)
  if (selected !== lastSelected) {
    setLastSelected(selected)
    setTabStop(selected)
  }

  function choose(id: T) {
    setTabStop(id)
    props.onSelect(id)
  }
  const tabId = (id: T) => `${idPrefix}-tab-${id}`
  const panelId = (id: T) => `${idPrefix}-panel-${id}`

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Move from the tab that has focus: the selection follows the address, which may not have
    // caught up with a quick second key press yet.
    const focused = tabs.findIndex((tab) => tabRefs.current.get(tab.id) === event.target)
    const index = focused >= 0 ? focused : tabs.findIndex((tab) => tab.id === selected)
    const last = tabs.length - 1
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null
    const target = next === null ? undefined : tabs[next]
    if (!target) return
    event.preventDefault()
    choose(target.id)
    tabRefs.current.get(target.id)?.focus()
  }

  return (
    <div>
      <div
        role="tablist"
        aria-label={props.label}
        onKeyDown={handleKeyDown}
        className="-mx-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 sm:mx-0 sm:px-0"
      >
        {tabs.map((tab) => {
          const isSelected = tab.id === selected
          return (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) tabRefs.current.set(tab.id, element)
                else tabRefs.current.delete(tab.id)
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              aria-selected={isSelected}
              aria-controls={panelId(tab.id)}
              tabIndex={tab.id === tabStop ? 0 : -1}
              onClick={() => choose(tab.id)}
              className={`-mb-px shrink-0 border-b-2 px-4 py-3 text-sm font-semibold whitespace-nowrap transition-colors ${
                isSelected
                  ? 'border-brand-700 text-brand-800'
                  : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
              }`}
            >
              {tab.label}
            </button>
          )
        })}
      </div>
      <div
        role="tabpanel"
        id={panelId(selected)}
        aria-labelledby={tabId(selected)}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern makes a panel a Tab stop, so one without controls (Integrations) can still be reached and read
        tabIndex={0}
        className="rounded-b-lg pt-6 focus-visible:outline-2 focus-visible:outline-offset-4"
      >
        {props.children}
      </div>
    </div>
  )
}
