import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Layer } from "effect"
import { deliverAll, Engine, makeEngine, Store, Verifications, WebhookTransport } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { basic, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { addIdentityDocument, businessWith, completeIndividual, create, verify, webhookProblems } from "../support/onboarding.ts"

const V = "/2025-10-13"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("reading verifications (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  it("gets one, and lists them oldest first by customer and status, paged", async () => {
    const id = await create(t, completeIndividual("Ann Lee 001"))
    const first = (await verify(t, id)).body
    await addIdentityDocument(t, id)
    const second = (await verify(t, id)).body
    const other = (await verify(t, await create(t, businessWith("RN-9")))).body
    expect((await t.request("GET", `${V}/verifications/${first.id}`)).body).toEqual(first)
    const q = `customerId=${encodeURIComponent(id)}`
    const mine = await t.request("GET", `${V}/verifications?${q}`)
    expect(mine.body).toMatchObject({ data: [first, second], hasMore: false, totalCount: 2 })
    const page = await t.request("GET", `${V}/verifications?${q}&limit=1`)
    expect(page.body.data).toEqual([first])
    expect(page.body.hasMore).toBe(true)
    expect((await t.request("GET", `${V}/verifications?${q}&cursor=${page.body.nextCursor}`)).body.data).toEqual([second])
    expect((await t.request("GET", `${V}/verifications?${q}&verificationStatus=RESOLVE_ERRORS`)).body.data).toEqual([first])
    const approved = (await t.request("GET", `${V}/verifications?verificationStatus=APPROVED`)).body.data
    expect(approved.map((v: any) => v.id)).toContain(other.id)
    expect(approved.every((v: any) => v.verificationStatus === "APPROVED")).toBe(true)
  })

  it("answers 404 REFERENCE_NOT_FOUND for an unknown or malformed id, and to another platform", async () => {
    for (const vid of ["Verification:00000000-0000-4000-8000-000000000000", "nope"]) {
      const r = await t.request("GET", `${V}/verifications/${vid}`)
      expect(r.status).toBe(404)
      expect(r.body).toMatchObject({ code: "REFERENCE_NOT_FOUND", details: { resource: "Verification" } })
    }
    const v = (await verify(t, await create(t, businessWith("RN-9")))).body
    await t.engine.platform({ clientId: "other-platform", clientSecret: "other-secret-0123456789" })
    const auth = basic("other-platform", "other-secret-0123456789")
    expect((await t.request("GET", `${V}/verifications/${v.id}`, { auth })).status).toBe(404)
    expect((await t.request("GET", `${V}/verifications`, { auth })).body.data).toEqual([])
    expect((await t.request("POST", `${V}/verifications`, { auth, body: { customerId: v.customerId } })).body.code).toBe("USER_NOT_FOUND")
  })

  it("answers 400 naming every bad list parameter", async () => {
    const r = await t.request("GET", `${V}/verifications?verificationStatus=DONE&limit=0`)
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: any) => e.field).sort()).toEqual(["limit", "verificationStatus"])
  })
})

describe("verifications through the embedding API", () => {
  it("submits, reads and lists with engine.as(platform), and the records survive export and import", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const platform = await engine.platform({ clientId: "embed", clientSecret: "s" })
    const api = engine.as(platform)
    const business = (await api.customers.create({
      customerType: "BUSINESS",
      businessInfo: { legalName: "Acme", country: "US", taxId: "1", incorporatedOn: "2020-01-01", registrationNumber: "RN-002" }
    })) as { id: string }
    const owner = await api.beneficialOwners.create({
      customerId: business.id,
      roles: ["UBO"],
      ownershipPercentage: 100,
      personalInfo: {
        firstName: "Jo",
        lastName: "Doe 002",
        birthDate: "1970-01-01",
        nationality: "US",
        address: { line1: "1 St", postalCode: "10001", country: "US" },
        idType: "SSN",
        identifier: "111-22-3333"
      }
    })
    const v = await api.verifications.submit({ customerId: business.id })
    expect(v).toMatchObject({ verificationStatus: "REJECTED", customerId: business.id })
    expect(await api.verifications.get(v.id)).toEqual(v)
    expect((await api.verifications.list({ customerId: business.id })).data).toEqual([v])
    expect((await api.beneficialOwners.get(owner.id)).kycStatus).toBe("REJECTED")
    const person = (await api.customers.create({ customerType: "INDIVIDUAL", fullName: "Ann 001" })) as { id: string }
    const gaps = await api.verifications.submit({ customerId: person.id })
    expect(gaps.errors.map((e) => e.field ?? e.acceptedDocumentTypes?.join())).toEqual([
      "birthDate", "nationality", "idType", "identifier", "address", "PASSPORT,DRIVERS_LICENSE,NATIONAL_ID"
    ])
    const link = await api.customers.createKycLink(business.id)
    expect(link.provider).toBe("SUMSUB")

    // Export, reset, import: the verification, the owner and the link come back as they were.
    const doc = await api.sandbox.exportState()
    expect(Object.keys(doc.collections)).toEqual(expect.arrayContaining(["verifications", "beneficialOwners", "kycLinks"]))
    await api.sandbox.reset()
    await expect(api.verifications.get(v.id)).rejects.toMatchObject({ _tag: "REFERENCE_NOT_FOUND" })
    await api.sandbox.importState(doc)
    expect(await api.verifications.get(v.id)).toEqual(v)
    expect(await api.verifications.get(gaps.id)).toEqual(gaps)
    expect((await api.beneficialOwners.get(owner.id)).kycStatus).toBe("REJECTED")
    expect(await engine.run(Effect.flatMap(Store, (s) => s.findBy(Verifications, platform.id, "customerId", business.id)))).toHaveLength(1)
    expect((await api.sandbox.completeKycLink(link.token!, { outcome: "APPROVED" }).catch((e) => e)).status).toBe(409)
    await engine.dispose()
  })

  it("checks webhook payloads against the reference's schemas (a wrong one is caught)", () => {
    expect(webhookProblems([{ id: "Webhook:x", type: "VERIFICATION.APPROVED", timestamp: "2025-01-01T00:00:00Z", data: { id: "v" } }])).not.toEqual([])
    expect(webhookProblems([{ id: "Webhook:x", type: "CUSTOMER.KYC_PENDING", timestamp: "2025-01-01T00:00:00Z", data: {} }])).not.toEqual([])
  })

  it("delivers the customer's and the verification's webhooks to the platform, in the reference's shapes", async () => {
    const received: Array<{ id: string; type: string; timestamp: string; data: unknown }> = []
    const transport = Layer.succeed(WebhookTransport, {
      post: (_url, _headers, body) => Effect.sync(() => (received.push(JSON.parse(body)), { status: 200, body: "" }))
    })
    const engine = await Engine.make({ store: MemoryStore.layer, clock: "virtual", clockStartMs: Date.UTC(2026, 5, 1), webhookTransport: transport })
    const platform = await engine.platform({ clientId: "hooks", clientSecret: "s", webhookUrl: "http://receiver.test/hook" })
    const api = engine.as(platform)
    const c = (await api.customers.create({
      customerType: "BUSINESS",
      businessInfo: { legalName: "Acme", country: "US", taxId: "1", incorporatedOn: "2020-01-01", registrationNumber: "RN-123" }
    })) as { id: string }
    const v = await api.verifications.submit({ customerId: c.id })
    await engine.run(deliverAll)
    expect(received.map((e) => e.type).sort()).toEqual(["CUSTOMER.KYB_APPROVED", "VERIFICATION.APPROVED"])
    expect(received.find((e) => e.type === "VERIFICATION.APPROVED")!.data).toEqual(v)
    expect(received.find((e) => e.type === "CUSTOMER.KYB_APPROVED")!.data).toMatchObject({ id: c.id, kybStatus: "APPROVED" })
    expect(webhookProblems(received)).toEqual([])
    await engine.dispose()
  })
})
