/**
 * Nesting depth checks for request bodies, so that nothing recursive (schema validation, error
 * formatting) ever sees a value deep enough to overflow the stack. Both are loops, not recursion.
 */

const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Whether JSON text nests arrays and objects deeper than `max`, counting brackets outside
 * strings. Run before `JSON.parse`; on text that is not JSON its answer does not matter, as the
 * parse rejects it anyway.
 */
export const textNestsDeeper = (text: string, max: number): boolean => {
  // Each level needs an opening and a closing bracket: shorter text cannot go past the limit.
  if (text.length <= max * 2) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--
  }
  return false
}

/** Whether an already parsed value (a host framework's `req.body`) nests deeper than `max`. */
export const valueNestsDeeper = (value: unknown, max: number): boolean => {
  const stack: Array<[unknown, number]> = [[value, 0]]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top
    if (typeof v !== "object" || v === null) continue
    if (depth + 1 > max) return true
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1])
  }
  return false
}
