import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { statusAtCreation } from "../../packages/core/src/machines/kyc.ts"
import { kycSuffixTable } from "../../packages/core/src/sandbox/kyc.ts"

describe("KYC status at creation", () => {
  it("an individual's status is its fullName suffix's row of the sandbox table, else APPROVED; a business starts UNVERIFIED", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.option(fc.constantFrom(...kycSuffixTable.map((r) => r.suffix)), { nil: undefined }), (name, suffix) => {
        const fullName = suffix === undefined ? name : name + suffix
        const row = kycSuffixTable.find((r) => fullName.endsWith(r.suffix))
        expect(statusAtCreation("INDIVIDUAL", fullName)).toEqual({ kycStatus: row?.kycStatus ?? "APPROVED" })
        expect(statusAtCreation("BUSINESS", fullName)).toEqual({ kybStatus: "UNVERIFIED" })
      })
    )
  })
})
