import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { kycStatusAtCreation, kycSuffixTable } from "@tessera/core"

describe("sandbox KYC suffix rule", () => {
  it("maps the three named suffixes", () => {
    expect(kycStatusAtCreation("Jane 001")).toBe("PENDING")
    expect(kycStatusAtCreation("Jane 002")).toBe("REJECTED")
    expect(kycStatusAtCreation("Jane 003")).toBe("UNVERIFIED")
    expect(kycStatusAtCreation(undefined)).toBe("APPROVED")
  })

  it("only the last three characters decide (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom("001", "002", "003"), (prefix, suffix) => {
        expect(kycStatusAtCreation(prefix + suffix)).toBe(kycSuffixTable.find((r) => r.suffix === suffix)!.kycStatus)
      })
    )
  })

  it("any other suffix is APPROVED (property)", () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !["001", "002", "003"].includes(s.slice(-3))),
        (name) => {
          expect(kycStatusAtCreation(name)).toBe("APPROVED")
        }
      )
    )
  })
})
