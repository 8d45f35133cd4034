/** A record as read from the file, before the header is found and cells are cleaned. */
export type RawRow = {
  /** The line (CSV) or sheet row number (XLSX) where the record starts, counting from 1. */
  line: number
  cells: string[]
  /** XLSX only: column index → the cell's hyperlink address, where it has one. */
  links?: Map<number, string>
}
