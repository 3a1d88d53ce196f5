import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { businessWith, completeIndividual, create, eventsAbout, owner, verify, webhookProblems } from "../support/onboarding.ts"

const V = "/2025-10-13"
const tokenOf = (kycUrl: string) => new URL(kycUrl).pathname.split("/").at(-1)!

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("hosted KYC links (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  const link = (customerId: string, body?: unknown) => t.request("POST", `${V}/customers/${customerId}/kyc-link`, body === undefined ? {} : { body })
  const complete = (token: string, outcome: string) => t.request("POST", `${V}/sandbox/kyc-links/${token}/complete`, { body: { outcome } })

  it("issues a fresh single-use link without changing the customer's status", async () => {
    const id = await create(t, completeIndividual("Ann Lee 003"))
    const r = await link(id)
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ provider: "SUMSUB", kycUrl: expect.stringMatching(/^https:\/\//) })
    expect(tokenOf(r.body.kycUrl)).toBe(r.body.token)
    expect(Date.parse(r.body.expiresAt)).toBeGreaterThan(Date.now() - 1000)
    const second = await link(id, { redirectUri: "https://app.example.com/onboarding/done" })
    expect(second.body.token).not.toBe(r.body.token)
    expect(new URL(second.body.kycUrl).searchParams.get("redirectUri")).toBe("https://app.example.com/onboarding/done")
    expect((await t.request("GET", `${V}/customers/${id}`)).body.kycStatus).toBe("UNVERIFIED")
    expect(await eventsAbout(t, id)).toEqual([])
  })

  it("answers 409 to an EU customer until its email and phone are both VERIFIED, then issues the link", async () => {
    const id = await create(t, completeIndividual("Eva Braun 003", { region: "DE", email: `kyc-eu-${kind}@example.com`, phoneNumber: "+4915112345999" }))
    const before = await link(id)
    expect(before.status).toBe(409)
    expect(before.body).toMatchObject({ code: "CONFLICT", details: { reason: "CONTACT_VERIFICATION_REQUIRED", unverified: ["email", "phone"] } })
    for (const channel of ["email", "phone"]) {
      expect((await t.request("POST", `${V}/customers/${id}/verify-${channel}`)).status).toBe(204)
      expect((await t.request("POST", `${V}/customers/${id}/verify-${channel}/confirm`, { body: { code: "123456" } })).status).toBe(200)
      if (channel === "email") expect((await link(id)).body.details).toMatchObject({ unverified: ["phone"] })
    }
    const after = await link(id)
    expect(after.status).toBe(201)
    expect(after.body.token).toMatch(/^[0-9a-f]{32}$/)
  })

  it("completing an individual's flow APPROVED moves kycStatus and sends the same webhooks as a verification; the link is used up", async () => {
    const id = await create(t, completeIndividual("Ann Lee 003"))
    const { token } = (await link(id)).body
    const r = await complete(token, "APPROVED")
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ customerId: id, verificationStatus: "APPROVED", errors: [] })
    expect((await t.request("GET", `${V}/customers/${id}`)).body.kycStatus).toBe("APPROVED")
    const events = [...(await eventsAbout(t, id)), ...(await eventsAbout(t, r.body.id))]
    expect(events.map((e) => e.type)).toEqual(["CUSTOMER.KYC_APPROVED", "VERIFICATION.APPROVED"])
    expect(webhookProblems(events)).toEqual([])
    expect((await t.request("GET", `${V}/verifications/${r.body.id}`)).body).toEqual(r.body)
    const again = await complete(token, "REJECTED")
    expect(again.status).toBe(409)
    // Final now: neither a submission nor another link changes it.
    expect((await verify(t, id)).status).toBe(400)
    const other = (await link(id)).body.token
    expect((await complete(other, "REJECTED")).status).toBe(409)
    expect((await t.request("GET", `${V}/customers/${id}`)).body.kycStatus).toBe("APPROVED")
  })

  it("PENDING: kycStatus PENDING with KYC_PENDING and a PENDING_MANUAL_REVIEW verification", async () => {
    const id = await create(t, completeIndividual("Ann Lee 003"))
    const r = await complete((await link(id)).body.token, "PENDING")
    expect(r.body.verificationStatus).toBe("PENDING_MANUAL_REVIEW")
    expect((await t.request("GET", `${V}/customers/${id}`)).body.kycStatus).toBe("PENDING")
    expect((await eventsAbout(t, id)).map((e) => e.type)).toEqual(["CUSTOMER.KYC_PENDING"])
  })

  it("a business's flow REJECTED moves kybStatus and resolves its owners by lastName", async () => {
    const id = await create(t, businessWith("RN-003"))
    const a = (await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, "Smith 001") })).body.id
    const b = (await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, "Smith") })).body.id
    const r = await complete((await link(id)).body.token, "REJECTED")
    expect(r.body.verificationStatus).toBe("REJECTED")
    expect((await t.request("GET", `${V}/customers/${id}`)).body.kybStatus).toBe("REJECTED")
    expect((await eventsAbout(t, id)).map((e) => e.type)).toEqual(["CUSTOMER.KYB_REJECTED"])
    expect((await t.request("GET", `${V}/beneficial-owners/${a}`)).body.kycStatus).toBe("PENDING")
    expect((await t.request("GET", `${V}/beneficial-owners/${b}`)).body.kycStatus).toBe("APPROVED")
  })

  it("a business's registration-number suffix decides over the chosen outcome (002 rejects, another approves)", async () => {
    for (const [rn, status] of [["RN-002", "REJECTED"], ["RN-444", "APPROVED"]]) {
      const id = await create(t, businessWith(rn))
      const r = await complete((await link(id)).body.token, status === "REJECTED" ? "APPROVED" : "REJECTED")
      expect(r.body.verificationStatus).toBe(status)
      expect((await t.request("GET", `${V}/customers/${id}`)).body.kybStatus).toBe(status)
    }
  })

  it("an expired link is refused (400) and changes nothing", async () => {
    const id = await create(t, completeIndividual("Ann Lee 003"))
    const { token } = (await link(id)).body
    await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 24 * 60 * 60 } })
    const r = await complete(token, "APPROVED")
    expect(r.status).toBe(400)
    expect(r.body.details).toMatchObject({ token })
    expect((await t.request("GET", `${V}/customers/${id}`)).body.kycStatus).toBe("UNVERIFIED")
  })

  it("answers 404 for an unknown customer or link, 400 for a bad redirectUri or outcome", async () => {
    const missing = await link("Customer:00000000-0000-4000-8000-000000000000")
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe("USER_NOT_FOUND")
    expect((await complete("0".repeat(32), "APPROVED")).body.code).toBe("REFERENCE_NOT_FOUND")
    const id = await create(t, completeIndividual("Ann Lee 003"))
    const bad = await link(id, { redirectUri: "javascript:alert(1)" })
    expect(bad.status).toBe(400)
    expect(bad.body.details.errors.map((e: any) => e.field)).toEqual(["redirectUri"])
    const { token } = (await link(id)).body
    const outcome = await complete(token, "MAYBE")
    expect(outcome.body.details.errors.map((e: any) => e.field)).toEqual(["outcome"])
    expect((await complete(token, "APPROVED")).status).toBe(200)
  })
})
