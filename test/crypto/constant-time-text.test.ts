import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { constantTimeEqualText } from "@tessera/core/crypto"

// The comparison behind every request's secret check once that secret has verified: it must say
// "equal" exactly when the strings are, whatever their lengths (it never stops at a difference).
describe("constantTimeEqualText", () => {
  it("is equality of strings, for any two", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (a, b) => constantTimeEqualText(a, b) === (a === b)))
  })

  it("tells a string from its prefixes, extensions, repetitions and the empty string", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.nat(), (s, cut) => {
        const prefix = s.slice(0, cut % s.length)
        return (
          constantTimeEqualText(s, s) &&
          !constantTimeEqualText(s, prefix) &&
          !constantTimeEqualText(prefix, s) &&
          !constantTimeEqualText(s, s + s) &&
          !constantTimeEqualText(s, "") &&
          !constantTimeEqualText("", s)
        )
      })
    )
  })
})
