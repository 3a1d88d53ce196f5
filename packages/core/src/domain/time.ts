/** RFC 3339 UTC timestamps (DECISIONS #4), with milliseconds so ordering filters stay exact. */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString()
