/** RFC 3339 UTC timestamps (DECISIONS #4), with milliseconds so ordering filters stay exact. */
export const rfc3339 = (ms: number): string => {
  // Writes in a loop stamp many records within one millisecond: the last answer is reused.
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString()
    lastMs = ms
  }
  return lastText
}
let lastMs = Number.NaN
let lastText = ""
