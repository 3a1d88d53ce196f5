/** RFC 3339 UTC timestamps (DECISIONS #4), with milliseconds so ordering filters stay exact. */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString()

/** Lifetimes, one constant each (DECISIONS #9). */
export const lifetimes = {
  signedRetryChallengeMs: 5 * 60_000,
  otpMs: 5 * 60_000,
  sessionMs: 15 * 60_000,
  ownershipChallengeMs: 10 * 60_000,
  oidcFreshnessMs: 60_000,
  oidcSkewMs: 5_000
} as const
