import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { documentForm, uploadDocument } from "../support/onboarding-uploads.ts"
import { encodeMultipart, multipartContentType, textParts } from "../support/multipart.ts"
import { samples, tinyPdf } from "../support/sample-files.ts"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { DOCUMENT_KEYS, markSubmitted, newBeneficialOwner, newCustomer, sha256, stored, V } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("documents over HTTP (%s store)", (kind) => {
  let t: TestServer
  let customerId: string
  beforeAll(async () => {
    t = await startTestServer(kind)
    customerId = await newCustomer(t)
  })
  afterAll(async () => t.close())

  it.each(["png", "jpeg"] as const)("uploads a %s sent as a FormData, keeps its bytes, and answers the reference's Document", async (k) => {
    const doc = await uploadDocument(t, customerId, "PASSPORT", k, { side: "FRONT", documentNumber: "A1234567", issuingAuthority: "U.S. Department of State" })
    expect(doc).toEqual({
      id: expect.stringMatching(/^Document:[0-9a-f-]{36}$/),
      documentHolder: customerId,
      documentType: "PASSPORT",
      side: "FRONT",
      country: "US",
      documentNumber: "A1234567",
      issuingAuthority: "U.S. Department of State",
      fileName: samples[k].name,
      createdAt: expect.any(String),
      updatedAt: doc.createdAt
    })
    const { record, bytes } = await stored(t, doc.id)
    expect(record).toMatchObject({ fileType: samples[k].type, fileSize: samples[k].bytes().byteLength, fileSha256: sha256(samples[k].bytes()), customerId })
    expect(bytes).toEqual(samples[k].bytes())
  })

  it("uploads a PDF from a hand-built multipart body (no part Content-Type on the text fields)", async () => {
    const pdf = tinyPdf(7)
    const raw = encodeMultipart([
      ...textParts({ documentType: "BANK_STATEMENT", country: "GB", documentHolder: customerId, side: "", documentNumber: "" }),
      { name: "file", value: pdf, fileName: "statement.pdf", contentType: "application/pdf" }
    ])
    const res = await t.request("POST", `${V}/documents`, { raw, headers: { "content-type": multipartContentType() } })
    expect(res.status).toBe(201)
    // Empty optional fields, as an HTML form sends them, are left out rather than refused.
    expect(Object.keys(res.body).sort()).toEqual(["country", "createdAt", "documentHolder", "documentType", "fileName", "id", "updatedAt"])
    const { record, bytes } = await stored(t, res.body.id)
    expect(record?.fileType).toBe("application/pdf")
    expect(sha256(bytes!)).toBe(sha256(pdf))
  })

  it("takes a beneficial owner as holder; the document belongs to the owner's business", async () => {
    const { ownerId, businessId } = await newBeneficialOwner(t)
    const doc = await uploadDocument(t, ownerId, "DRIVERS_LICENSE", "jpeg", { side: "BACK" })
    expect(doc.documentHolder).toBe(ownerId)
    expect((await stored(t, doc.id)).record?.customerId).toBe(businessId)
  })

  it("reads a document back, and lists by holder in upload order, paged by cursor with totalCount", async () => {
    const holder = await newCustomer(t)
    const ids: Array<string> = []
    for (const [i, type] of ["PASSPORT", "PROOF_OF_ADDRESS", "SELFIE"].entries()) ids.push((await uploadDocument(t, holder, type, "png", {}, i)).id)
    const one = await t.request("GET", `${V}/documents/${ids[1]}`)
    expect([one.status, one.body.documentType, one.body.documentHolder]).toEqual([200, "PROOF_OF_ADDRESS", holder])
    for (const key of Object.keys(one.body)) expect(DOCUMENT_KEYS).toContain(key)
    const first = await t.request("GET", `${V}/documents?documentHolder=${encodeURIComponent(holder)}&limit=2`)
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 })
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 2))
    const rest = await t.request("GET", `${V}/documents?documentHolder=${encodeURIComponent(holder)}&limit=2&cursor=${first.body.nextCursor}`)
    expect(rest.body).toMatchObject({ hasMore: false, totalCount: 3 })
    expect(rest.body.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(2))
    const all = await t.request("GET", `${V}/documents`)
    expect(all.body.totalCount).toBeGreaterThanOrEqual(3)
    const none = await t.request("GET", `${V}/documents?documentHolder=Customer:00000000-0000-4000-8000-000000000000`)
    expect(none.body).toEqual({ data: [], hasMore: false, totalCount: 0 })
    const bad = await t.request("GET", `${V}/documents?limit=0&cursor=nope`)
    expect(bad.status).toBe(400)
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["cursor", "limit"])
  })

  it("replaces file and metadata whole with PUT: new bytes, dropped optional fields, same holder and createdAt", async () => {
    const doc = await uploadDocument(t, customerId, "NATIONAL_ID", "png", { side: "FRONT", documentNumber: "X1" })
    const form = documentForm(undefined, "NATIONAL_ID", "pdf", {}, 42)
    const res = await t.request("PUT", `${V}/documents/${doc.id}`, { form })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: doc.id, documentHolder: customerId, createdAt: doc.createdAt, fileName: "statement.pdf" })
    expect(res.body.side).toBeUndefined()
    expect(res.body.documentNumber).toBeUndefined()
    const { record, bytes } = await stored(t, doc.id)
    expect([record?.fileType, sha256(bytes!)]).toEqual(["application/pdf", sha256(tinyPdf(42))])
    // The holder may be repeated on a replace, not changed.
    const same = await t.request("PUT", `${V}/documents/${doc.id}`, { form: documentForm(customerId, "NATIONAL_ID", "jpeg") })
    expect(same.status).toBe(200)
    const other = await newCustomer(t)
    const moved = await t.request("PUT", `${V}/documents/${doc.id}`, { form: documentForm(other, "NATIONAL_ID", "jpeg") })
    expect([moved.status, moved.body.details.errors[0].field]).toEqual([400, "documentHolder"])
    expect((await stored(t, doc.id)).record?.fileType).toBe("image/jpeg")
  })

  it("deletes a document and its bytes (204), then answers 404 for it", async () => {
    const doc = await uploadDocument(t, customerId, "UTILITY_BILL", "pdf")
    const del = await t.request("DELETE", `${V}/documents/${doc.id}`)
    expect([del.status, del.body]).toEqual([204, undefined])
    expect(await stored(t, doc.id)).toEqual({ record: undefined, bytes: undefined })
    for (const [method, options] of [["GET", {}], ["DELETE", {}], ["PUT", { form: documentForm(undefined, "OTHER") }]] as const) {
      const res = await t.request(method, `${V}/documents/${doc.id}`, options)
      expect([res.status, res.body.code, res.body.details]).toEqual([404, "REFERENCE_NOT_FOUND", { resource: "Document", id: doc.id }])
    }
  })

  it("refuses to delete a document a verification took in (409), and keeps it", async () => {
    const doc = await uploadDocument(t, customerId, "PASSPORT", "jpeg")
    await markSubmitted(t, doc.id)
    const del = await t.request("DELETE", `${V}/documents/${doc.id}`)
    expect([del.status, del.body.code]).toEqual([409, "CONFLICT"])
    expect((await stored(t, doc.id)).bytes).toEqual(samples.jpeg.bytes())
    // A replace is still allowed, and the document stays submitted.
    expect((await t.request("PUT", `${V}/documents/${doc.id}`, { form: documentForm(undefined, "PASSPORT", "png") })).status).toBe(200)
    expect((await stored(t, doc.id)).record?.submittedAt).toBeDefined()
  })

  it("answers 404 for an id of another kind or of nothing", async () => {
    for (const id of ["nope", customerId, "Document:00000000-0000-4000-8000-000000000000"]) {
      const res = await t.request("GET", `${V}/documents/${encodeURIComponent(id)}`)
      expect([res.status, res.body.code]).toEqual([404, "REFERENCE_NOT_FOUND"])
    }
  })
})
