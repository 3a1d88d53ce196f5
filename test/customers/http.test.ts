import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { business, individual, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"

const V = "/2025-10-13"

describe.each<StoreKind>(["memory", "sqlite", "async-memory", "postgres"])("customers over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  it("creates an individual whose fullName suffix decides kycStatus", async () => {
    const cases: Array<[string, string]> = [
      ["Ann Lee 001", "PENDING"],
      ["Ann Lee 002", "REJECTED"],
      ["Ann Lee 003", "UNVERIFIED"],
      ["Ann Lee 004", "APPROVED"],
      ["Ann Lee", "APPROVED"]
    ]
    for (const [fullName, kycStatus] of cases) {
      const r = await t.request("POST", `${V}/customers`, { body: individual({ fullName, email: undefined }) })
      expect(r.status).toBe(201)
      expect(r.body.kycStatus).toBe(kycStatus)
      expect(r.body.id).toMatch(/^Customer:[0-9a-f-]{36}$/)
    }
  })

  it("creates a business that always starts kybStatus UNVERIFIED, whatever its registration number", async () => {
    for (const registrationNumber of ["RN-001", "RN-002", "RN-999"]) {
      const r = await t.request("POST", `${V}/customers`, {
        body: business({ email: undefined, businessInfo: { ...business().businessInfo, registrationNumber } })
      })
      expect(r.status).toBe(201)
      expect(r.body.kybStatus).toBe("UNVERIFIED")
      expect(r.body.kycStatus).toBeUndefined()
    }
  })

  it("never returns the write-only identifier", async () => {
    const r = await t.request("POST", `${V}/customers`, { body: individual({ idType: "SSN", identifier: "123-45-6789", email: undefined }) })
    expect(r.status).toBe(201)
    expect(r.body.identifier).toBeUndefined()
    expect(JSON.stringify((await t.request("GET", `${V}/customers/${r.body.id}`)).body)).not.toContain("123-45-6789")
  })

  it("provisions a Global account with an EMAIL_OTP credential tied to the email", async () => {
    const c = await t.request("POST", `${V}/customers`, { body: individual({ email: "tied@example.com" }) })
    const accounts = await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}`)
    expect(accounts.status).toBe(200)
    expect(accounts.body.data).toHaveLength(1)
    const wallet = accounts.body.data[0]
    expect(wallet).toMatchObject({ customerId: c.body.id, type: "EMBEDDED_WALLET", status: "ACTIVE", privateEnabled: false })
    expect(wallet.id).toMatch(/^InternalAccount:/)
    const { AuthMethods } = await import("@tessera/core")
    const platform = await t.engine.platform({ clientId: "test-client", clientSecret: "test-secret-0123456789" })
    const { Effect } = await import("effect")
    const { Store } = await import("@tessera/core")
    const creds = await t.engine.run(Effect.flatMap(Store, (s) => s.findBy(AuthMethods, platform.id, "accountId", wallet.id)))
    expect(creds).toHaveLength(1)
    expect(creds[0]).toMatchObject({ type: "EMAIL_OTP", email: "tied@example.com", accountId: wallet.id })
    expect(creds[0]!.id).toMatch(/^AuthMethod:/)
  })

  it("gets, patches and deletes a customer", async () => {
    const c = await t.request("POST", `${V}/customers`, { body: individual({ platformCustomerId: `p-${kind}-patch`, email: undefined }) })
    const got = await t.request("GET", `${V}/customers/${c.body.id}`)
    expect(got.body).toEqual(c.body)
    // A sized body, not chunked: clients that read content-length get the whole answer.
    expect(got.headers.get("content-length")).toBe(String(Buffer.byteLength(JSON.stringify(got.body))))
    expect(got.headers.get("transfer-encoding")).toBeNull()
    const patched = await t.request("PATCH", `${V}/customers/${c.body.id}`, {
      body: { customerType: "INDIVIDUAL", fullName: "Jane Q Smith", address: { line1: "1 Main St", postalCode: "98101", country: "US" } }
    })
    expect(patched.status).toBe(200)
    expect(patched.body.fullName).toBe("Jane Q Smith")
    expect(patched.body.address.line1).toBe("1 Main St")
    expect(patched.body.kycStatus).toBe(c.body.kycStatus)
    expect(patched.body.platformCustomerId).toBe(`p-${kind}-patch`)
    const del = await t.request("DELETE", `${V}/customers/${c.body.id}`)
    expect(del.status).toBe(200)
    expect(del.body.isDeleted).toBe(true)
    expect((await t.request("DELETE", `${V}/customers/${c.body.id}`)).body.code).toBe("CUSTOMER_DELETED")
    // A deleted customer frees its platformCustomerId.
    const again = await t.request("POST", `${V}/customers`, { body: individual({ platformCustomerId: `p-${kind}-patch`, email: undefined }) })
    expect(again.status).toBe(201)
  })

  it("refuses to change a customer's type or email and phone together", async () => {
    const c = await t.request("POST", `${V}/customers`, { body: individual({ email: undefined }) })
    const r = await t.request("PATCH", `${V}/customers/${c.body.id}`, { body: { customerType: "BUSINESS" } })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: any) => e.field)).toContain("customerType")
    const both = await t.request("PATCH", `${V}/customers/${c.body.id}`, {
      body: { customerType: "INDIVIDUAL", email: "a@b.co", phoneNumber: "+14155551234" }
    })
    expect(both.status).toBe(400)
  })

  it("answers an email change on a wallet-tied EMAIL_OTP credential with a signed-retry challenge, changing nothing yet", async () => {
    const c = await t.request("POST", `${V}/customers`, { body: individual({ email: "keep@example.com" }) })
    const r = await t.request("PATCH", `${V}/customers/${c.body.id}`, { body: { customerType: "INDIVIDUAL", email: "new@example.com" } })
    expect(r.status).toBe(202)
    expect(r.body.requestId).toMatch(/^Request:/)
    expect((await t.request("GET", `${V}/customers/${c.body.id}`)).body.email).toBe("keep@example.com")
  })

  it("answers 409 CONFLICT when platformCustomerId collides with an active customer", async () => {
    const body = individual({ platformCustomerId: `dup-${kind}`, email: undefined })
    expect((await t.request("POST", `${V}/customers`, { body })).status).toBe(201)
    const r = await t.request("POST", `${V}/customers`, { body })
    expect(r.status).toBe(409)
    expect(r.body.code).toBe("CONFLICT")
  })

  it("answers 409 UMA_ADDRESS_EXISTS for a taken UMA address", async () => {
    const body = individual({ umaAddress: `$taken.${kind}@example.com`, email: undefined })
    expect((await t.request("POST", `${V}/customers`, { body })).status).toBe(201)
    const r = await t.request("POST", `${V}/customers`, { body })
    expect(r.status).toBe(409)
    expect(r.body.code).toBe("UMA_ADDRESS_EXISTS")
  })

  it("pages through customers in creation order with filters", async () => {
    const made: Array<string> = []
    for (let i = 0; i < 7; i++)
      made.push((await t.request("POST", `${V}/customers`, { body: individual({ region: "MX", email: undefined, fullName: `Pager ${i}` }) })).body.id)
    const seen: Array<string> = []
    let cursor: string | undefined
    for (;;) {
      const r = await t.request("GET", `${V}/customers?region=MX&limit=3${cursor ? `&cursor=${cursor}` : ""}`)
      expect(r.status).toBe(200)
      expect(r.body.totalCount).toBe(7)
      seen.push(...r.body.data.map((c: any) => c.id))
      if (!r.body.hasMore) break
      cursor = r.body.nextCursor
    }
    expect(seen).toEqual(made)
    const biz = await t.request("GET", `${V}/customers?customerType=BUSINESS&limit=100`)
    expect(biz.body.data.every((c: any) => c.customerType === "BUSINESS")).toBe(true)
  })

  it("hides deleted customers from lists unless asked", async () => {
    const c = await t.request("POST", `${V}/customers`, { body: individual({ platformCustomerId: `gone-${kind}`, email: undefined }) })
    await t.request("DELETE", `${V}/customers/${c.body.id}`)
    expect((await t.request("GET", `${V}/customers?platformCustomerId=gone-${kind}`)).body.data).toHaveLength(0)
    expect((await t.request("GET", `${V}/customers?platformCustomerId=gone-${kind}&isIncludingDeleted=true`)).body.data).toHaveLength(1)
  })

  it("lists the platform's own internal accounts", async () => {
    const r = await t.request("GET", `${V}/platform/internal-accounts`)
    expect(r.status).toBe(200)
    expect(r.body.data.length).toBeGreaterThan(0)
    expect(r.body.data.every((a: any) => a.customerId === undefined)).toBe(true)
  })

  it("refuses requests without valid credentials with the 401 envelope and WWW-Authenticate", async () => {
    for (const auth of [null, "Basic " + Buffer.from("test-client:wrong").toString("base64"), "Bearer x"]) {
      const r = await t.request("GET", `${V}/customers`, { auth })
      expect(r.status).toBe(401)
      expect(r.body.code).toBe("UNAUTHORIZED")
      expect(r.headers.get("www-authenticate")).toMatch(/^Basic/)
    }
  })

  it("serves the current End User Terms at /customers/end-user-terms (not read as a customer id); a consent names its version", async () => {
    const terms = await t.request("GET", `${V}/customers/end-user-terms`)
    expect(terms.status, JSON.stringify(terms.body)).toBe(200)
    expect(terms.body).toEqual({ version: "V1", url: expect.stringMatching(/^https:\/\/.+\/V1$/) })
    const consent = { acceptedAt: "2025-10-01T12:00:00Z", ipAddress: "203.0.113.7", termsVersion: terms.body.version, acceptanceMethod: "CHECKBOX" }
    const c = await t.request("POST", `${V}/customers`, { body: individual({ email: undefined, endUserTermsConsent: consent }) })
    expect(c.status, JSON.stringify(c.body)).toBe(201)
    expect(c.body.endUserTermsConsent).toEqual(consent)
    // The embedding API has it too, and every platform gets the same terms.
    const other = await t.engine.platform({ clientId: "terms-reader", clientSecret: "terms-reader-secret" })
    expect(await t.engine.as(other).customers.endUserTerms()).toEqual(terms.body)
    expect((await t.request("GET", `${V}/customers/end-user-terms`, { auth: null })).status).toBe(401)
  })

  it("answers unknown routes 404 and wrong methods 405 once authenticated, 401 before", async () => {
    const missing = await t.request("GET", `${V}/no-such-thing`)
    expect([missing.status, missing.body.code]).toEqual([404, "NOT_FOUND"])
    const wrong = await t.request("PUT", `${V}/customers`)
    expect([wrong.status, wrong.body.code]).toEqual([405, "METHOD_NOT_ALLOWED"])
    const anonymous = await t.request("GET", `${V}/no-such-thing`, { auth: null })
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "UNAUTHORIZED"])
  })
})

describe("platform isolation", () => {
  it("a second platform sees none of the first platform's customers", async () => {
    const t = await startTestServer("memory")
    try {
      await t.engine.platform({ clientId: "other", clientSecret: "other-secret" })
      const other = "Basic " + Buffer.from("other:other-secret").toString("base64")
      const c = await t.request("POST", `${V}/customers`, { body: individual({ email: undefined }) })
      expect((await t.request("GET", `${V}/customers/${c.body.id}`, { auth: other })).status).toBe(404)
      expect((await t.request("GET", `${V}/customers`, { auth: other })).body.data).toEqual([])
      expect((await t.request("GET", `${V}/customers/internal-accounts`, { auth: other })).body.data).toEqual([])
      expect((await t.request("DELETE", `${V}/customers/${c.body.id}`, { auth: other })).status).toBe(404)
      expect((await t.request("GET", `${V}/customers/${c.body.id}`)).body.isDeleted).toBe(false)
    } finally {
      await t.close()
    }
  })
})
