import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import {
  addDocument,
  BUSINESS_ADDRESS,
  businessWith,
  completeBusiness,
  create,
  eventsAbout,
  owner,
  readDocument,
  verify,
  webhookProblems
} from "../support/onboarding.ts"

const V = "/2025-10-13"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("POST /verifications for businesses (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  const kybStatus = async (id: string) => (await t.request("GET", `${V}/customers/${id}`)).body.kybStatus

  it("002: immediately REJECTED (kybStatus and verification), checks skipped; then 400", async () => {
    const id = await create(t, businessWith("RN-002"))
    const r = await verify(t, id)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ customerId: id, verificationStatus: "REJECTED", errors: [] })
    expect(await kybStatus(id)).toBe("REJECTED")
    const events = await eventsAbout(t, id)
    expect(events.map((e) => e.type)).toEqual(["CUSTOMER.KYB_REJECTED"])
    expect(events[0]!.data).toMatchObject({ id, customerType: "BUSINESS", kybStatus: "REJECTED" })
    expect((await eventsAbout(t, r.body.id)).map((e) => e.type)).toEqual(["VERIFICATION.REJECTED"])
    expect(webhookProblems([...events, ...(await eventsAbout(t, r.body.id))])).toEqual([])
    const again = await verify(t, id)
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({ code: "INVALID_INPUT", details: { customerId: id, status: "REJECTED" } })
  })

  it.each([["RN-777"], [undefined]])("any other suffix (%s): immediately APPROVED, no documents or owners asked; then 400", async (rn) => {
    const id = await create(t, businessWith(rn))
    const r = await verify(t, id)
    expect(r.body).toMatchObject({ verificationStatus: "APPROVED", errors: [] })
    expect(await kybStatus(id)).toBe("APPROVED")
    expect((await eventsAbout(t, id)).map((e) => e.type)).toEqual(["CUSTOMER.KYB_APPROVED"])
    expect((await verify(t, id)).status).toBe(400)
  })

  it.each([["RN-001"], ["RN-003"]])("%s with nothing supplied: RESOLVE_ERRORS listing address, the three documents and the missing owner", async (rn) => {
    const id = await create(t, businessWith(rn))
    const r = await verify(t, id)
    expect(r.body.verificationStatus).toBe("RESOLVE_ERRORS")
    expect(r.body.errors.map((e: any) => e.field ?? e.type)).toEqual([
      "address",
      "MISSING_LEGAL_PRESENCE_DOCUMENT",
      "MISSING_OWNERSHIP_STRUCTURE_DOCUMENT",
      "MISSING_PROOF_OF_ADDRESS_DOCUMENT",
      "MISSING_BENEFICIAL_OWNER"
    ])
    expect(r.body.errors.every((e: any) => e.resourceId === id)).toBe(true)
    expect(r.body.errors[1].acceptedDocumentTypes).toContain("CERTIFICATE_OF_INCORPORATION")
    expect(r.body.errors[3].acceptedDocumentTypes).toContain("UTILITY_BILL")
    expect(await kybStatus(id)).toBe("UNVERIFIED")
    expect(await eventsAbout(t, id)).toEqual([])
  })

  it("001 with part supplied: only what is still missing", async () => {
    const id = await create(t, businessWith("RN-001", { address: BUSINESS_ADDRESS }))
    await addDocument(t, id, "ARTICLES_OF_ASSOCIATION")
    await addDocument(t, id, "PROOF_OF_ADDRESS")
    expect((await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, "Doe") })).status).toBe(201)
    const r = await verify(t, id)
    expect(r.body.errors).toEqual([
      { resourceId: id, type: "MISSING_OWNERSHIP_STRUCTURE_DOCUMENT", acceptedDocumentTypes: ["SHAREHOLDER_REGISTER", "TRUST_AGREEMENT", "PARTNERSHIP_AGREEMENT"], reason: expect.any(String) }
    ])
  })

  it.each([["RN-001"], ["RN-003"]])("%s complete: IN_PROGRESS, kybStatus PENDING with KYB_PENDING, documents submitted, owners still UNVERIFIED", async (rn) => {
    const { id, ownerId } = await completeBusiness(t, rn)
    const doc = await addDocument(t, id, "BANK_STATEMENT")
    const r = await verify(t, id)
    expect(r.body).toMatchObject({ verificationStatus: "IN_PROGRESS", errors: [] })
    expect(await kybStatus(id)).toBe("PENDING")
    expect((await eventsAbout(t, id)).map((e) => e.type)).toEqual(["CUSTOMER.KYB_PENDING"])
    expect((await readDocument(t, doc.id))?.submittedAt).toBe(r.body.createdAt)
    expect((await t.request("GET", `${V}/beneficial-owners/${ownerId}`)).body.kycStatus).toBe("UNVERIFIED")
    // Not final: a second submission is another verification.
    expect((await verify(t, id)).body.verificationStatus).toBe("IN_PROGRESS")
  })

  it.each([
    ["Smith 001", "PENDING"],
    ["Smith 002", "REJECTED"],
    ["Smith", "APPROVED"]
  ])("owner %s resolves %s when its business resolves terminally", async (lastName, status) => {
    for (const rn of ["RN-002", "RN-555"]) {
      const id = await create(t, businessWith(rn))
      const o = await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, lastName) })
      expect(o.body.kycStatus).toBe("UNVERIFIED")
      await verify(t, id)
      const after = await t.request("GET", `${V}/beneficial-owners/${o.body.id}`)
      expect(after.body.kycStatus).toBe(status)
      // An owner added after the resolution takes its status at once.
      const late = await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, lastName) })
      expect(late.body.kycStatus).toBe(status)
    }
  })
})
