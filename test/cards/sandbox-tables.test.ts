import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { cardNumbers, decisioningOutcome, isIneligibleFundingSource, luhnCheckDigit, passesLuhn, provisioningOutcome } from "@tessera/core"

describe("the card sandbox tables", () => {
  it("platformCardId suffixes, falling back to the cardholder id when it is omitted", () => {
    expect(["x-001", "x-002", "x-005", "x-004"].map((p) => provisioningOutcome(p, "Customer:c-005"))).toEqual([
      "STAYS_PROCESSING",
      "ISSUER_REJECTED",
      "DELAYED_ACTIVATION",
      "ACTIVE"
    ])
    expect(provisioningOutcome(undefined, "Customer:00000000-0000-4000-8000-000000000002")).toBe("ISSUER_REJECTED")
  })

  it("funding accounts ending 002 or 003 are ineligible; merchant descriptors decide authorizations", () => {
    expect(["InternalAccount:x002", "InternalAccount:x003", "InternalAccount:x004"].map(isIneligibleFundingSource)).toEqual([true, true, false])
    expect(["A-002", "A-003", "A-005", "A-006", "A-007"].map(decisioningOutcome)).toEqual(["INSUFFICIENT_FUNDS", "CARD_PAUSED", "DELAYED_PULL", "EXCEPTION", "APPROVED"])
  })

  it("Luhn: the check digit of a known test number, and a wrong digit fails", () => {
    expect(luhnCheckDigit("411111111111111")).toBe("1")
    expect(passesLuhn("4111111111111111")).toBe(true)
    expect(passesLuhn("4111111111111112")).toBe(false)
  })

  it("every derived PAN is 16 digits on the sandbox BIN and passes Luhn; the same seed gives the same numbers", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
        const { pan, cvv } = cardNumbers(seed)
        expect(pan).toMatch(/^411111\d{10}$/)
        expect(passesLuhn(pan)).toBe(true)
        expect(cvv).toMatch(/^\d{3}$/)
        expect(cardNumbers(seed)).toEqual({ pan, cvv })
      })
    )
  })
})
