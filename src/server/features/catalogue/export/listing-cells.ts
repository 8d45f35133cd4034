/**
 * Cells of the exported listing. Spreadsheet programs run a cell that starts with `=`, `+`, `-`
 * or `@` as a formula (and `=HYPERLINK(…)` can send data away when clicked), also after leading
 * spaces, a tab or a carriage return; the list's cells and the model's SEO copy are text we did
 * not write, so every such cell gets a leading apostrophe. The full-width forms are included
 * because some spreadsheet programs fold them to the ASCII ones.
 */
const formulaChar = '[=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20]'
const formulaStart = new RegExp(`^[\\s\\u3000]*${formulaChar}`, 'u')

/** The cell's text, made inert for a spreadsheet that reads it as one cell (the XLSX). */
export function neutraliseCell(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text
}

/**
 * Where a CSV reader may start a cell inside one of our fields: the field's start, and after
 * every `,`, `;` and line break in it. A reader that takes the other separator (Excel in a
 * comma locale splits our `;` file on `,`, and honours quotes only at a cell's start, so a line
 * break inside a quoted field ends its record) cuts the field there, so each such place that a
 * formula could follow (after spaces, a tab or quotes) gets an apostrophe too. A hyphen inside a
 * word, `12,50 TL` or `e-posta` stay as they are; a `- ` bullet after a line break does not.
 */
const csvCellStart = new RegExp(`(?<=^|[,;\\r\\n])(?=(?:[^\\S\\r\\n]|")*${formulaChar})`, 'gu')

/** The field's text, made inert for a spreadsheet whichever separator it splits the file on. */
export function neutraliseCsvField(text: string): string {
  return text.replace(csvCellStart, "'")
}

/** Separator of the CSV: what Turkish Excel expects, since `,` is its decimal separator. */
export const csvSeparator = ';'

/**
 * One CSV field, quoted as RFC 4180 says when it holds a separator (ours, `;`, or the `,` other
 * readers split on), a quote, a tab or a line break; quotes inside are doubled.
 */
export function csvField(text: string): string {
  return /[;,"\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV record with its CRLF, every field neutralised first. */
export function csvRecord(cells: readonly string[]): string {
  return `${cells.map((cell) => csvField(neutraliseCsvField(cell))).join(csvSeparator)}\r\n`
}
