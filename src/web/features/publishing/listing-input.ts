/** A price or quantity as typed in Turkish or English ("1.299,90", "1299.90"); NaN when unreadable. */
export function numberOf(text: string): number {
  const cleaned = text.replace(/[\s₺]|TL/gi, '')
  const normalised = /,\d{1,2}$/.test(cleaned)
    ? cleaned.replace(/\./g, '').replace(',', '.')
    : cleaned.replace(/,/g, '')
  return normalised === '' ? Number.NaN : Number(normalised)
}
