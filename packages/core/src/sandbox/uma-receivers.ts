/**
 * The sandbox's UMA receivers (spec, "Sandbox scenarios"; DECISIONS #177): on the sandbox UMA
 * domain, these local parts always resolve; any other address there is well-formed and unknown
 * (404 UMA_NOT_FOUND). The spec leaves the domain a placeholder; the reference's guides use
 * `sandbox.uma.money` and its examples `sandbox.grid.uma.money`, so both are the sandbox's.
 */
export const SANDBOX_UMA_DOMAINS: ReadonlyArray<string> = ["sandbox.uma.money", "sandbox.grid.uma.money"]

/** What a payment to the receiver does: completes, stays pending a long while, or fails compliance. */
export type SandboxUmaOutcome = "SUCCESS" | "PENDING_LONG" | "FAIL_COMPLIANCE"

export interface SandboxUmaReceiver {
  readonly localPart: string
  readonly currency: string
  readonly outcome: SandboxUmaOutcome
}

export const sandboxUmaReceivers: ReadonlyArray<SandboxUmaReceiver> = [
  { localPart: "success.usd", currency: "USD", outcome: "SUCCESS" },
  { localPart: "success.eur", currency: "EUR", outcome: "SUCCESS" },
  { localPart: "success.mxn", currency: "MXN", outcome: "SUCCESS" },
  { localPart: "pending.long.usd", currency: "USD", outcome: "PENDING_LONG" },
  { localPart: "fail.compliance.usd", currency: "USD", outcome: "FAIL_COMPLIANCE" }
]

/** `$local@domain` split, lower-cased (UMA addresses compare without case). */
export const splitUmaAddress = (address: string): { readonly localPart: string; readonly domain: string } | undefined => {
  const m = /^\$([^@]+)@(.+)$/.exec(address.toLowerCase())
  return m === null ? undefined : { localPart: m[1]!, domain: m[2]! }
}

/** The sandbox receiver at an address, if it is one. */
export const sandboxUmaReceiver = (address: string): SandboxUmaReceiver | undefined => {
  const parts = splitUmaAddress(address)
  if (parts === undefined || !SANDBOX_UMA_DOMAINS.includes(parts.domain)) return undefined
  return sandboxUmaReceivers.find((r) => r.localPart === parts.localPart)
}
