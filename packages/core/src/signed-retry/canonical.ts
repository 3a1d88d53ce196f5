import { sha256Hex } from "../crypto/secrets.ts"

/**
 * Canonical JSON: object keys sorted at every depth, no whitespace. The retry must carry the
 * same body as the first call, but key order and spacing are the client's business (DECISIONS #17).
 */
export const canonicalJson = (value: unknown): string => {
  if (value === undefined) return ""
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
    return `{${entries.join(",")}}`
  }
  return JSON.stringify(value)
}

export const bodySha256 = (body: unknown): string => sha256Hex(canonicalJson(body))

/**
 * The activity a signed retry asks the wallet to approve, as the compact JSON the client signs
 * byte for byte (DECISIONS #16). The request id makes every payload unique, so a stamp can never
 * be replayed under another challenge.
 */
export const activityPayload = (args: {
  readonly type: string
  readonly organizationId: string
  readonly requestId: string
  readonly nowMs: number
  readonly parameters: Record<string, unknown>
}): string =>
  JSON.stringify({
    type: args.type,
    organizationId: args.organizationId,
    requestId: args.requestId,
    timestampMs: String(args.nowMs),
    parameters: args.parameters
  })
