import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { addDocument, addIdentityDocument, completeIndividual, create, eventsAbout, readDocument, verify, webhookProblems } from "../support/onboarding.ts"

const V = "/2025-10-13"
const IDENTITY = ["PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID"]

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("POST /verifications for individuals (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  it("001 with complete data and an identity document: PENDING_MANUAL_REVIEW, kycStatus stays PENDING, the document is submitted", async () => {
    const id = await create(t, completeIndividual("Ann Lee 001"))
    const doc = await addIdentityDocument(t, id, "DRIVERS_LICENSE")
    const r = await verify(t, id)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ customerId: id, verificationStatus: "PENDING_MANUAL_REVIEW", errors: [] })
    expect(r.body.id).toMatch(/^Verification:[0-9a-f-]{36}$/)
    expect((await t.request("GET", `${V}/customers/${id}`)).body.kycStatus).toBe("PENDING")
    expect((await readDocument(t, doc.id))?.submittedAt).toBe(r.body.createdAt)
    const customerEvents = await eventsAbout(t, id)
    expect(customerEvents.map((e) => e.type)).toEqual(["CUSTOMER.KYC_PENDING"])
    expect(customerEvents[0]!.data).toMatchObject({ id, kycStatus: "PENDING" })
    expect(customerEvents[0]!.data.identifier).toBeUndefined()
    const verificationEvents = await eventsAbout(t, r.body.id)
    expect(verificationEvents.map((e) => e.type)).toEqual(["VERIFICATION.PENDING_MANUAL_REVIEW"])
    expect(verificationEvents[0]!.data).toEqual(r.body)
    expect(webhookProblems([...customerEvents, ...verificationEvents])).toEqual([])
  })

  it("001 with only a name: RESOLVE_ERRORS with one entry per missing item, on the customer", async () => {
    const id = await create(t, { customerType: "INDIVIDUAL", fullName: "Ann Lee 001" })
    const r = await verify(t, id)
    expect(r.status).toBe(200)
    expect(r.body.verificationStatus).toBe("RESOLVE_ERRORS")
    expect(r.body.errors.map((e: any) => e.field ?? e.type)).toEqual(["birthDate", "nationality", "idType", "identifier", "address", "MISSING_IDENTITY_DOCUMENT"])
    for (const e of r.body.errors) {
      expect(e.resourceId).toBe(id)
      expect(typeof e.reason).toBe("string")
    }
    expect(r.body.errors.at(-1)).toMatchObject({ type: "MISSING_IDENTITY_DOCUMENT", acceptedDocumentTypes: IDENTITY })
    expect(r.body.errors.slice(0, 5).every((e: any) => e.type === "MISSING_FIELD" && e.acceptedDocumentTypes === undefined)).toBe(true)
    // The customer's status does not move; only the verification's webhook goes out.
    expect((await t.request("GET", `${V}/customers/${id}`)).body.kycStatus).toBe("PENDING")
    expect(await eventsAbout(t, id)).toEqual([])
    expect((await eventsAbout(t, r.body.id)).map((e) => e.type)).toEqual(["VERIFICATION.RESOLVE_ERRORS"])
  })

  it("001 with complete data but no identity document (another document does not count): only MISSING_IDENTITY_DOCUMENT", async () => {
    const id = await create(t, completeIndividual("Ann Lee 001"))
    const other = await addDocument(t, id, "UTILITY_BILL")
    const r = await verify(t, id)
    expect(r.body).toMatchObject({ verificationStatus: "RESOLVE_ERRORS", errors: [{ resourceId: id, type: "MISSING_IDENTITY_DOCUMENT", acceptedDocumentTypes: IDENTITY }] })
    expect(r.body.errors).toHaveLength(1)
    expect((await readDocument(t, other.id))?.submittedAt).toBeUndefined()
    // Uploading the document and submitting again passes.
    await addIdentityDocument(t, id, "NATIONAL_ID")
    expect((await verify(t, id)).body.verificationStatus).toBe("PENDING_MANUAL_REVIEW")
  })

  it("003 with complete data: RESOLVE_ERRORS with one POOR_QUALITY_DOCUMENT error on the identity document; kycStatus stays UNVERIFIED", async () => {
    const id = await create(t, completeIndividual("Ann Lee 003"))
    const doc = await addIdentityDocument(t, id)
    const r = await verify(t, id)
    expect(r.status).toBe(200)
    expect(r.body.verificationStatus).toBe("RESOLVE_ERRORS")
    expect(r.body.errors).toEqual([{ resourceId: doc.id, type: "POOR_QUALITY_DOCUMENT", reason: expect.any(String) }])
    expect((await t.request("GET", `${V}/customers/${id}`)).body.kycStatus).toBe("UNVERIFIED")
    expect((await readDocument(t, doc.id))?.submittedAt).toBeUndefined()
  })

  it("003 with incomplete data: the missing items, not the document's quality", async () => {
    const id = await create(t, completeIndividual("Ann Lee 003", { nationality: undefined, address: undefined }))
    const r = await verify(t, id)
    expect(r.body.errors.map((e: any) => e.field ?? e.type)).toEqual(["nationality", "address", "MISSING_IDENTITY_DOCUMENT"])
  })

  it.each([
    ["002", "REJECTED"],
    ["004", "APPROVED"],
    ["", "APPROVED"]
  ])("suffix %s (kycStatus %s at creation): 400, nothing recorded", async (suffix, status) => {
    const id = await create(t, completeIndividual(`Ann Lee ${suffix}`.trim()))
    await addIdentityDocument(t, id)
    const r = await verify(t, id)
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ code: "INVALID_INPUT", details: { customerId: id, status } })
    expect((await t.request("GET", `${V}/verifications?customerId=${encodeURIComponent(id)}`)).body.data).toEqual([])
    expect(await eventsAbout(t, id)).toEqual([])
  })

  it("answers 404 USER_NOT_FOUND for an unknown, malformed or deleted customer", async () => {
    for (const customerId of ["Customer:00000000-0000-4000-8000-000000000000", "nope"]) {
      const r = await verify(t, customerId)
      expect(r.status).toBe(404)
      expect(r.body.code).toBe("USER_NOT_FOUND")
    }
    const id = await create(t, completeIndividual("Gone 001"))
    await t.request("DELETE", `${V}/customers/${id}`)
    expect((await verify(t, id)).body.code).toBe("USER_NOT_FOUND")
  })

  it("answers 400 naming the invalid field for a bad body", async () => {
    for (const body of [{}, { customerId: 7 }, { customerId: "" }]) {
      const r = await t.request("POST", `${V}/verifications`, { body })
      expect(r.status).toBe(400)
      expect(r.body.details.errors.map((e: any) => e.field)).toEqual(["customerId"])
    }
  })
})
