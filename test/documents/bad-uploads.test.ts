import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DOCUMENT_MAX_FILE_BYTES, DOCUMENT_UPLOAD_MAX_BYTES } from "@tessera/core"
import { documentForm, uploadDocument } from "../support/onboarding-uploads.ts"
import { encodeMultipart, multipartContentType, type RawPart, textParts } from "../support/multipart.ts"
import { tinyGif, tinyJpeg, tinyPdf, tinyPng } from "../support/sample-files.ts"
import { type Reply, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { stored, V } from "./support.ts"

const fields = (res: Reply) => (res.body.details?.errors ?? []).map((e: { field: string }) => e.field)
const messageOf = (res: Reply, field: string): string => res.body.details.errors.find((e: { field: string }) => e.field === field)?.message

/** A file whose first bytes are `head` and whose length is `size`. */
const sized = (head: Uint8Array, size: number) => {
  const bytes = new Uint8Array(size)
  bytes.set(head)
  return bytes
}

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("documents refuse bad uploads (%s store)", (kind) => {
  let t: TestServer
  let holder: string
  let count: () => Promise<number>
  beforeAll(async () => {
    t = await startTestServer(kind)
    holder = (await t.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", fullName: "Doc Holder" } })).body.id
    count = async () => (await t.request("GET", `${V}/documents`)).body.totalCount
  })
  afterAll(async () => t.close())

  const send = (file: RawPart | undefined, text: Record<string, string> = { documentType: "PASSPORT", country: "US", documentHolder: holder }) =>
    t.request("POST", `${V}/documents`, {
      raw: encodeMultipart([...textParts(text), ...(file === undefined ? [] : [file])]),
      headers: { "content-type": multipartContentType() }
    })

  it.each<[string, () => RawPart, string]>([
    ["a GIF", () => ({ name: "file", value: tinyGif(), fileName: "x.gif", contentType: "image/gif" }), "must be a JPEG, PNG or PDF file (judged by its content)"],
    ["text bytes named .pdf", () => ({ name: "file", value: "hello, not a pdf", fileName: "x.pdf", contentType: "application/pdf" }), "must be a JPEG, PNG or PDF file (judged by its content)"],
    ["a PNG named .pdf", () => ({ name: "file", value: tinyPng(), fileName: "scan.pdf" }), "is named .pdf but its content is a PNG image"],
    ["a JPEG named .png", () => ({ name: "file", value: tinyJpeg(), fileName: "photo.png", contentType: "image/jpeg" }), "is named .png but its content is a JPEG image"],
    ["a PNG sent as application/pdf", () => ({ name: "file", value: tinyPng(), fileName: "scan", contentType: "application/pdf" }), "is declared as application/pdf but its content is a PNG image"],
    ["a PDF sent as image/png", () => ({ name: "file", value: tinyPdf(), fileName: "doc.pdf", contentType: "image/png" }), "is declared as image/png but its content is a PDF document"],
    ["an empty file", () => ({ name: "file", value: new Uint8Array(0), fileName: "empty.png", contentType: "image/png" }), "is empty"],
    ["a file without a name", () => ({ name: "file", value: tinyPng(), fileName: "", contentType: "image/png" }), "must be sent with a file name"],
    ["a file of 10 MB and one byte", () => ({ name: "file", value: sized(tinyPdf(), DOCUMENT_MAX_FILE_BYTES + 1), fileName: "big.pdf", contentType: "application/pdf" }), `is larger than 10 MB (${DOCUMENT_MAX_FILE_BYTES} bytes)`],
    ["the file sent as a text field", () => ({ name: "file", value: "just text" }), "must be a file part (with a filename), not a text field"]
  ])("refuses %s with a 400 naming file, and stores nothing", async (_name, file, message) => {
    const before = await count()
    const res = await send(file())
    expect([res.status, res.body.code, fields(res)]).toEqual([400, "INVALID_INPUT", ["file"]])
    expect(messageOf(res, "file")).toBe(message)
    expect(await count()).toBe(before)
  })

  it("accepts a file of exactly 10 MB, a generic declared type, and a name without extension", async () => {
    const res = await send({ name: "file", value: sized(tinyJpeg(), DOCUMENT_MAX_FILE_BYTES), fileName: "scan", contentType: "application/octet-stream" })
    expect(res.status).toBe(201)
    expect((await stored(t, res.body.id)).record).toMatchObject({ fileType: "image/jpeg", fileSize: DOCUMENT_MAX_FILE_BYTES })
  })

  it("lists every missing or invalid field at once, the file among them", async () => {
    const res = await t.request("POST", `${V}/documents`, { raw: encodeMultipart([{ name: "side", value: "TOP" }, { name: "documentNumber", value: "x".repeat(101) }]), headers: { "content-type": multipartContentType() } })
    expect(res.status).toBe(400)
    expect(fields(res).sort()).toEqual(["country", "documentHolder", "documentNumber", "documentType", "file", "side"])
    const empty = await t.request("POST", `${V}/documents`, { raw: "", headers: { "content-type": multipartContentType() } })
    expect(fields(empty).sort()).toEqual(["country", "documentHolder", "documentType", "file"])
    const wrong = await send({ name: "file", value: tinyGif(), fileName: "x.gif" }, { documentType: "PASSPORT_CARD", country: "usa", documentHolder: "Account:1" })
    expect(fields(wrong).sort()).toEqual(["country", "documentHolder", "documentType", "file"])
    expect(messageOf(wrong, "documentHolder")).toBe("must be a Customer or BeneficialOwner id")
  })

  it("refuses a text field sent as a file part, beside the other errors", async () => {
    const res = await send({ name: "file", value: tinyPng(), fileName: "a.png" }, { documentType: "PASSPORT", documentHolder: holder })
    expect(fields(res)).toEqual(["country"])
    const asFile = await t.request("POST", `${V}/documents`, {
      raw: encodeMultipart([{ name: "documentType", value: "PASSPORT", fileName: "type.txt" }, ...textParts({ country: "US", documentHolder: holder }), { name: "file", value: tinyPng(), fileName: "a.png" }]),
      headers: { "content-type": multipartContentType() }
    })
    expect([asFile.status, messageOf(asFile, "documentType")]).toEqual([400, "must be a text field, not a file part"])
  })

  it("answers an unknown holder with the reference's 404 codes, and a holder of another platform alike", async () => {
    const customer = await t.request("POST", `${V}/documents`, { form: documentForm("Customer:00000000-0000-4000-8000-000000000001", "PASSPORT") })
    expect([customer.status, customer.body.code]).toEqual([404, "USER_NOT_FOUND"])
    const owner = await t.request("POST", `${V}/documents`, { form: documentForm("BeneficialOwner:00000000-0000-4000-8000-000000000001", "PASSPORT") })
    expect([owner.status, owner.body.code, owner.body.details.resource]).toEqual([404, "REFERENCE_NOT_FOUND", "BeneficialOwner"])
    await t.engine.platform({ clientId: "other-platform", clientSecret: "other-secret-0123456789" })
    const auth = `Basic ${Buffer.from("other-platform:other-secret-0123456789").toString("base64")}`
    const theirs = await t.request("POST", `${V}/documents`, { form: documentForm(holder, "PASSPORT"), auth })
    expect([theirs.status, theirs.body.code]).toEqual([404, "USER_NOT_FOUND"])
    // Nor can another platform see, replace or delete this platform's documents.
    const mine = await uploadDocument(t, holder, "SELFIE", "jpeg")
    for (const method of ["GET", "DELETE"]) expect((await t.request(method, `${V}/documents/${mine.id}`, { auth })).status).toBe(404)
    expect((await t.request("GET", `${V}/documents`, { auth })).body.totalCount).toBe(0)
  })

  it("answers a deleted customer as holder with USER_NOT_FOUND", async () => {
    const gone = (await t.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", fullName: "Gone Soon" } })).body.id
    await t.request("DELETE", `${V}/customers/${gone}`)
    const res = await t.request("POST", `${V}/documents`, { form: documentForm(gone, "PASSPORT") })
    expect([res.status, res.body.code]).toEqual([404, "USER_NOT_FOUND"])
  })

  it("answers a JSON body 415, a malformed multipart 400, a repeated field 400, a body past the cap 413", async () => {
    const json = await t.request("POST", `${V}/documents`, { body: { documentType: "PASSPORT", country: "US", documentHolder: holder } })
    expect([json.status, json.body.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"])
    const good = encodeMultipart([...textParts({ documentType: "PASSPORT", country: "US", documentHolder: holder }), { name: "file", value: tinyPng(), fileName: "a.png" }])
    for (const [raw, contentType] of [
      [good.subarray(0, good.length - 10), multipartContentType()],
      [good, "multipart/form-data"],
      [good, multipartContentType("not-the-boundary")],
      [Buffer.from("garbage\r\n\r\n"), multipartContentType()]
    ] as const) {
      const res = await t.request("POST", `${V}/documents`, { raw, headers: { "content-type": contentType } })
      expect([res.status, res.body.code, fields(res)]).toEqual([400, "INVALID_INPUT", ["body"]])
    }
    // An unknown part is ignored, as an unknown JSON property is.
    const unknown = await send({ name: "file", value: tinyPng(), fileName: "a.png" }, { documentType: "PASSPORT", country: "US", documentHolder: holder, "country ": "x" })
    expect(unknown.status).toBe(201)
    const repeated = await t.request("POST", `${V}/documents`, {
      raw: encodeMultipart([...textParts({ documentType: "PASSPORT", country: "US", documentHolder: holder }), { name: "country", value: "FR" }, { name: "file", value: tinyPng(), fileName: "a.png" }]),
      headers: { "content-type": multipartContentType() }
    })
    expect([repeated.status, fields(repeated)]).toEqual([400, ["country"]])
    const huge = await send({ name: "file", value: sized(tinyPng(), DOCUMENT_UPLOAD_MAX_BYTES), fileName: "huge.png" })
    expect([huge.status, huge.body.code, huge.body.details.maxBytes]).toEqual([413, "PAYLOAD_TOO_LARGE", DOCUMENT_UPLOAD_MAX_BYTES])
  })
})
