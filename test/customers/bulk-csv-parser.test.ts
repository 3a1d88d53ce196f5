import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { decodeUtf8, parseCsv } from "../../packages/core/src/domain/customers/csv.ts"

/** RFC 4180 as a writer would produce it, quoting only where needed: the parser's inverse. */
const writeCsv = (records: ReadonlyArray<ReadonlyArray<string>>, eol: string) =>
  records.map((r) => r.map((f) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(",")).join(eol) + eol

const field = fc.string({ unit: fc.constantFrom("a", "Z", "é", " ", ",", '"', "\n", "\r", "\r\n", "1") })
// A record of one empty field is a blank line: no record at all, so the writer never writes one.
const record = fc.array(field, { minLength: 1, maxLength: 6 }).filter((r) => !(r.length === 1 && r[0] === ""))

describe("the RFC 4180 reader", () => {
  it("reads back what an RFC 4180 writer wrote, with CRLF or LF line ends", () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 8 }), fc.constantFrom("\r\n", "\n"), (records, eol) => {
        expect(parseCsv(writeCsv(records, eol), 100)).toEqual(Either.right(records))
      })
    )
  })

  it("takes a missing last line break, a byte-order mark and blank lines in its stride", () => {
    expect(parseCsv("\ufeffa,b\n\nc,d", 10)).toEqual(Either.right([["a", "b"], ["c", "d"]]))
    expect(parseCsv("a,", 10)).toEqual(Either.right([["a", ""]]))
    expect(parseCsv("", 10)).toEqual(Either.right([]))
  })

  it("refuses what RFC 4180 does not allow, naming the line", () => {
    expect(parseCsv('a,b\n"open,c\nd', 10)).toEqual(Either.left({ reason: "MALFORMED", line: 2, message: "has a quoted field that is never closed" }))
    expect(parseCsv('a\nb"c', 10)).toEqual(Either.left({ reason: "MALFORMED", line: 2, message: "has a quote inside an unquoted field" }))
    expect(parseCsv('"x\ny"z', 10)).toEqual(Either.left({ reason: "MALFORMED", line: 2, message: "has text after a closing quote" }))
    expect(decodeUtf8(new Uint8Array([0xc3, 0x28]))).toMatchObject({ left: { reason: "MALFORMED" } })
  })

  it("stops past the bound on records, whatever follows", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 20 }), (bound, extra) => {
        const text = Array.from({ length: bound + extra }, (_, i) => `r${i}`).join("\n")
        expect(parseCsv(text, bound)).toMatchObject({ left: { reason: "TOO_MANY_RECORDS" } })
        expect(Either.isRight(parseCsv(text, bound + extra))).toBe(true)
      })
    )
  })

  it("never throws on any text: it reads records or names a problem", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", ",", '"', "\n", "\r", "\ufeff") }), (text) => {
        const r = parseCsv(text, 50)
        if (Either.isLeft(r)) expect(["MALFORMED", "TOO_MANY_RECORDS"]).toContain(r.left.reason)
      })
    )
  })
})
