/**
 * The adapter's error lines: one JSON object per line on stderr, with the wall-clock `time`
 * every log line carries (README, Configuration). Never a request's headers, body or query.
 */
export const logError = (msg: string, fields: Record<string, unknown>): void =>
  console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", msg, ...fields }))
