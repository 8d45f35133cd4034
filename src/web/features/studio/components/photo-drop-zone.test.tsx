import { fireEvent, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { PhotoDropZone } from './photo-drop-zone.tsx'

const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'mug.png', { type: 'image/png' })

describe('PhotoDropZone', () => {
  it('is a labelled file input with a button that opens it, and takes a dropped file', async () => {
    const onChoose = vi.fn()
    await renderWeb(
      <PhotoDropZone
        label="Product photo"
        state={{ status: 'empty', error: null }}
        onChoose={onChoose}
        onRemove={() => undefined}
        testId="photo"
      />,
    )
    const input = screen.getByLabelText('Product photo') as HTMLInputElement
    expect(input.type).toBe('file')
    expect(input.accept).toBe('image/png,image/jpeg,image/webp')
    const click = vi.spyOn(input, 'click')
    fireEvent.click(screen.getByRole('button', { name: 'choose a file' }))
    expect(click).toHaveBeenCalled()
    fireEvent.drop(screen.getByTestId('photo-target'), { dataTransfer: { files: [png] } })
    expect(onChoose).toHaveBeenCalledWith(png)
  })

  it('shows the FILE_TYPE_INVALID message for a wrong type, tied to the input', async () => {
    await renderWeb(
      <PhotoDropZone
        label="Product photo"
        state={{ status: 'empty', error: 'FILE_TYPE_INVALID' }}
        onChoose={() => undefined}
        onRemove={() => undefined}
        testId="photo"
      />,
    )
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toBe('Please select an image file (PNG, JPG, WEBP)')
    const input = screen.getByLabelText('Product photo')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(input.getAttribute('aria-describedby')).toContain(alert.id)
  })

  it('shows the chosen photo with name, size in MB, Replace and Remove', async () => {
    const onRemove = vi.fn()
    const file = new File([new Uint8Array(2.5 * 1024 * 1024)], 'Kupa fotoğrafı.jpg', { type: 'image/jpeg' })
    await renderWeb(
      <PhotoDropZone
        label="Ürün fotoğrafı"
        state={{ status: 'uploading', file, previewUrl: 'blob:preview' }}
        onChoose={() => undefined}
        onRemove={onRemove}
        testId="photo"
      />,
      { locale: 'tr' },
    )
    expect(screen.getByTestId('photo-name').textContent).toBe('Kupa fotoğrafı.jpg')
    expect(screen.getByTestId('photo-size').textContent).toContain('2,5 MB')
    expect(screen.getByText('Yükleniyor…')).toBeTruthy()
    expect(screen.getByRole('img', { name: 'Kupa fotoğrafı.jpg önizlemesi' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Değiştir' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Kaldır' }))
    expect(onRemove).toHaveBeenCalled()
  })
})
