import { readdirSync, readFileSync } from "node:fs"
import { resolve } from "node:path"
import { describe, expect, it } from "vitest"

const dir = resolve(import.meta.dirname, "../../packages/core/src/machines")
// What a machine may import: domain types and errors, the limits, the sandbox tables, its
// siblings, and Either from effect. No port, operation, adapter or Effect service.
const allowed = [/^\.\.\/domain\//, /^\.\.\/limits\.ts$/, /^\.\.\/sandbox\//, /^\.\/[a-z-]+\.ts$/, /^effect$/]

describe("machines/ is pure", () => {
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts"))
  it.each(files)("%s imports only domain types, limits, sandbox tables and sibling machines", (file) => {
    const source = readFileSync(resolve(dir, file), "utf8")
    const specifiers = [...source.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]!)
    expect(specifiers.filter((s) => !allowed.some((a) => a.test(s)))).toEqual([])
    // From effect, only the Either data type: no Effect, Layer, Context or service.
    for (const m of source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"effect"/g))
      expect(m[1]!.split(",").map((n) => n.trim()).filter((n) => n !== "" && n !== "Either")).toEqual([])
  })
  it("holds the machines the design names", () => {
    expect(files.sort()).toEqual(
      ["agent-action.ts", "agent-policy.ts", "card-transaction.ts", "card.ts", "contact-verification.ts", "credential-set.ts", "delegated-key.ts", "external-account-status.ts", "invitation.ts", "kyc.ts", "ledger.ts", "otp.ts", "outbox-delivery.ts", "quote.ts", "sca-challenge.ts", "sca-factors.ts", "sca-reset.ts", "sca-session.ts", "session.ts", "signed-request.ts", "stablecoin-operation.ts", "transaction.ts", "transition.ts", "verification-requirements.ts", "verification.ts"]
    )
  })
})
