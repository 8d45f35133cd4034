import { fireEvent, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { KeepProductOption } from './keep-product-option.tsx'

function Controlled(props: { onChange: (checked: boolean) => void }) {
  const [checked, setChecked] = useState(false)
  return (
    <KeepProductOption
      checked={checked}
      onChange={(next) => {
        setChecked(next)
        props.onChange(next)
      }}
    />
  )
}

describe('KeepProductOption', () => {
  it('is a switch named by its label and described by its help, toggled by click or keyboard', async () => {
    const onChange = vi.fn()
    await renderWeb(<Controlled onChange={onChange} />)
    const control = screen.getByRole('switch', { name: 'Keep my product exactly' })
    expect(control.getAttribute('aria-checked')).toBe('false')
    const describedBy = control.getAttribute('aria-describedby') ?? ''
    const help = describedBy
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ')
    expect(help).toContain('pixel for pixel')
    // A real button: Enter and Space activate it (the browser turns them into a click).
    expect(control.tagName).toBe('BUTTON')
    expect(control.getAttribute('type')).toBe('button')
    fireEvent.click(control)
    expect(onChange).toHaveBeenLastCalledWith(true)
    expect(control.getAttribute('aria-checked')).toBe('true')
    expect(screen.getByTestId('keep-product').textContent).toContain('On')
    fireEvent.click(control)
    expect(onChange).toHaveBeenLastCalledWith(false)
    expect(control.getAttribute('aria-checked')).toBe('false')
  })

  it('speaks Turkish', async () => {
    await renderWeb(<KeepProductOption checked onChange={() => undefined} />, { locale: 'tr' })
    const control = screen.getByRole('switch', { name: 'Ürünümü birebir koru' })
    expect(control.getAttribute('aria-checked')).toBe('true')
    expect(screen.getByTestId('keep-product').textContent).toContain('Açık')
  })
})
