import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { DEFAULT_MAX_BODY_BYTES, DOCUMENT_UPLOAD_MAX_BYTES, envelopeOf, isDomainError, type MultipartBody } from "@tessera/core"
import { isMultipart, parseMultipart, readCap } from "@tessera/adapter-http"

/**
 * The multipart reader on its own: what a multipart endpoint's program receives for a body, and
 * the envelope for every body it cannot take. The documents tests drive it over real HTTP.
 */

const parse = async (bytes: Uint8Array | string, contentType: string) => {
  const body = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes
  const result = await Effect.runPromise(Effect.either(parseMultipart(body, contentType)))
  return Either.isRight(result) ? { ok: result.right } : { error: isDomainError(result.left) ? envelopeOf(result.left) : result.left }
}

/** The bytes and content type `fetch` would send for a FormData. */
const encode = async (form: FormData) => {
  const request = new Request("http://x/", { method: "POST", body: form })
  return { bytes: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get("content-type")! }
}

const B = "tessera-boundary-7f3a"
const CT = `multipart/form-data; boundary=${B}`
const part = (name: string, value: string, file?: { name: string; type?: string }) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file.name}"` : ""}\r\n` +
  (file?.type ? `Content-Type: ${file.type}\r\n` : "") +
  `\r\n${value}\r\n`
const end = `--${B}--\r\n`

describe("multipart/form-data reader", () => {
  it("hands over text fields and files (name, declared type, exact bytes) from a FormData body", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 13, 10])
    const form = new FormData()
    form.append("documentType", "PASSPORT")
    form.append("country", "FR")
    form.append("file", new Blob([png], { type: "image/png" }), "scan.png")
    const { bytes, contentType } = await encode(form)
    const { ok } = await parse(bytes, contentType)
    expect(ok?.fields).toEqual({ documentType: "PASSPORT", country: "FR" })
    expect(ok?.files["file"]?.fileName).toBe("scan.png")
    expect(ok?.files["file"]?.contentType).toBe("image/png")
    expect([...ok!.files["file"]!.bytes]).toEqual([...png])
  })

  it("reads a hand-built body, a quoted boundary, and an empty file as a file of no bytes", async () => {
    const body = part("a", "one") + part("empty", "", { name: "nothing.pdf", type: "application/pdf" }) + end
    const { ok } = await parse(body, `multipart/form-data; boundary="${B}"`)
    expect(ok?.fields).toEqual({ a: "one" })
    expect(ok?.files["empty"]?.bytes.byteLength).toBe(0)
    expect(ok?.files["empty"]?.fileName).toBe("nothing.pdf")
  })

  it("keeps a field named __proto__ as a plain field, not a prototype", async () => {
    const { ok } = await parse(part("__proto__", "x") + end, CT)
    const fields = (ok as MultipartBody).fields
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype)
    expect(Object.keys(fields)).toEqual(["__proto__"])
  })

  it("refuses a name sent twice (text or file) with a 400 naming each", async () => {
    const body = part("a", "1") + part("a", "2") + part("f", "x", { name: "f.png" }) + part("f", "y") + part("b", "ok") + end
    const { error } = await parse(body, CT)
    expect(error).toMatchObject({ status: 400, code: "INVALID_INPUT" })
    expect((error as any).details.errors.map((e: { field: string }) => e.field)).toEqual(["a", "f"])
  })

  it.each([
    ["no boundary parameter", part("a", "1") + end, "multipart/form-data"],
    ["truncated before the closing boundary", (part("a", "1") + end).slice(0, 40), CT],
    ["garbage", "\u0000\u00ff not multipart at all", CT],
    ["a boundary other than the declared one", part("a", "1").replaceAll(B, "other") + "--other--\r\n", CT],
    ["a part without Content-Disposition", `--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n${end}`, CT]
  ])("answers %s with a 400 envelope on the body", async (_name, body, contentType) => {
    const { error } = await parse(body, contentType)
    expect(error).toMatchObject({ status: 400, code: "INVALID_INPUT", details: { errors: [{ field: "body" }] } })
  })

  it("answers another media type with the 415 envelope", async () => {
    const { error } = await parse('{"a":1}', "application/json")
    expect(error).toMatchObject({ status: 415, code: "UNSUPPORTED_MEDIA_TYPE", details: { contentType: "application/json" } })
  })

  it("recognises the media type whatever its case and parameters, and nothing else", () => {
    expect(isMultipart("Multipart/Form-Data; boundary=x")).toBe(true)
    expect(isMultipart("multipart/form-data")).toBe(true)
    expect(isMultipart("multipart/mixed; boundary=x")).toBe(false)
    expect(isMultipart("multipart/form-datax")).toBe(false)
    expect(isMultipart(undefined)).toBe(false)
  })

  it("lets a transport read a multipart body past the JSON cap, and only a multipart body", () => {
    expect(readCap({}, "application/json")).toBe(DEFAULT_MAX_BODY_BYTES)
    expect(readCap({ maxBodyBytes: 10 }, undefined)).toBe(10)
    // The largest multipart endpoint's cap (document uploads'), whatever the JSON cap.
    expect(readCap({}, CT)).toBe(DOCUMENT_UPLOAD_MAX_BYTES)
    expect(readCap({ maxBodyBytes: 10 }, CT)).toBe(DOCUMENT_UPLOAD_MAX_BYTES)
  })
})
