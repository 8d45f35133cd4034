/**
 * Reads the JSON object out of a model's reply: the whole text when it is JSON, else the
 * first balanced `{…}` object that parses (servers that ignore `response_format` wrap it in
 * prose or code fences). Returns undefined when there is none.
 */
export function extractJsonObject(text: string): unknown {
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed)
    } catch {
      // Fall through to the scan: e.g. a valid object followed by a remark.
    }
  }
  for (let start = trimmed.indexOf('{'); start >= 0; start = trimmed.indexOf('{', start + 1)) {
    const end = matchingBrace(trimmed, start)
    if (end < 0) continue
    try {
      const value: unknown = JSON.parse(trimmed.slice(start, end + 1))
      if (value && typeof value === 'object' && !Array.isArray(value)) return value
    } catch {
      // Not JSON (e.g. a brace in prose): try the next opening brace.
    }
  }
  return undefined
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside strings; -1 if none. */
function matchingBrace(text: string, start: number): number {
  let depth = 0
  let isInString = false
  let isEscaped = false
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (isInString) {
      if (isEscaped) isEscaped = false
      else if (char === '\\') isEscaped = true
      else if (char === '"') isInString = false
      continue
    }
    if (char === '"') isInString = true
    else if (char === '{') depth++
    else if (char === '}') {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}
