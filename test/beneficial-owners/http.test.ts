import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { basic, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { businessWith, completeIndividual, create, owner } from "../support/onboarding.ts"

const V = "/2025-10-13"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("beneficial owners over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  it("creates an owner of a business: UNVERIFIED, its identifier never shown whole", async () => {
    const id = await create(t, businessWith("RN-001"))
    const r = await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, "Smith", { roles: ["UBO", "DIRECTOR"], ownershipPercentage: 51 }) })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ customerId: id, roles: ["UBO", "DIRECTOR"], ownershipPercentage: 51, kycStatus: "UNVERIFIED" })
    expect(r.body.id).toMatch(/^BeneficialOwner:[0-9a-f-]{36}$/)
    expect(r.body.personalInfo).toMatchObject({ firstName: "Jane", lastName: "Smith", identifier: "***-**-4321" })
    const got = await t.request("GET", `${V}/beneficial-owners/${r.body.id}`)
    expect(got.body).toEqual(r.body)
    const listed = await t.request("GET", `${V}/beneficial-owners?customerId=${encodeURIComponent(id)}`)
    expect(listed.body).toMatchObject({ data: [r.body], hasMore: false, totalCount: 1 })
    expect(JSON.stringify([got.body, listed.body])).not.toContain("987-65-4321")
  })

  it("lists a business's owners oldest first, paged; another customer's are not among them", async () => {
    const id = await create(t, businessWith("RN-001"))
    const other = await create(t, businessWith("RN-001"))
    const ids: Array<string> = []
    for (const n of ["A", "B", "C"]) ids.push((await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, n) })).body.id)
    await t.request("POST", `${V}/beneficial-owners`, { body: owner(other, "Z") })
    const first = await t.request("GET", `${V}/beneficial-owners?customerId=${encodeURIComponent(id)}&limit=2`)
    expect(first.body.data.map((o: any) => o.id)).toEqual(ids.slice(0, 2))
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 })
    const rest = await t.request("GET", `${V}/beneficial-owners?customerId=${encodeURIComponent(id)}&cursor=${first.body.nextCursor}`)
    expect(rest.body.data.map((o: any) => o.id)).toEqual(ids.slice(2))
    expect((await t.request("GET", `${V}/beneficial-owners?customerId=Customer:00000000-0000-4000-8000-000000000000`)).body.data).toEqual([])
  })

  it("lists only with a customerId (400 naming it)", async () => {
    const r = await t.request("GET", `${V}/beneficial-owners`)
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: any) => e.field)).toEqual(["customerId"])
  })

  it("patches only the given fields; personalInfo merges field by field", async () => {
    const id = await create(t, businessWith("RN-001"))
    const o = (await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, "Smith") })).body
    const r = await t.request("PATCH", `${V}/beneficial-owners/${o.id}`, { body: { ownershipPercentage: 25, personalInfo: { lastName: "Jones 002" } } })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ ownershipPercentage: 25, roles: ["UBO"], kycStatus: "UNVERIFIED" })
    expect(r.body.personalInfo).toEqual({ ...o.personalInfo, lastName: "Jones 002" })
    expect((await t.request("GET", `${V}/beneficial-owners/${o.id}`)).body).toEqual(r.body)
  })

  it("answers 400 listing every invalid field, and changes nothing", async () => {
    const id = await create(t, businessWith("RN-001"))
    const bad = await t.request("POST", `${V}/beneficial-owners`, {
      body: {
        customerId: id,
        roles: ["CEO"],
        ownershipPercentage: 101,
        personalInfo: { firstName: "", lastName: "X", birthDate: "1990-13-01", nationality: "USA", address: { line1: "1 St" }, idType: "PASSPORT", identifier: "1" }
      }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.details.errors.map((e: any) => e.field).sort()).toEqual(
      [
        "roles.0",
        "ownershipPercentage",
        "personalInfo.firstName",
        "personalInfo.birthDate",
        "personalInfo.nationality",
        "personalInfo.address.postalCode",
        "personalInfo.address.country",
        "personalInfo.idType"
      ].sort()
    )
    const missing = await t.request("POST", `${V}/beneficial-owners`, { body: {} })
    expect(missing.body.details.errors.map((e: any) => e.field).sort()).toEqual(["customerId", "ownershipPercentage", "personalInfo", "roles"])
    const o = (await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, "Smith") })).body
    const patch = await t.request("PATCH", `${V}/beneficial-owners/${o.id}`, { body: { ownershipPercentage: -1, personalInfo: { birthDate: "yesterday" } } })
    expect(patch.body.details.errors.map((e: any) => e.field).sort()).toEqual(["ownershipPercentage", "personalInfo.birthDate"])
    expect((await t.request("GET", `${V}/beneficial-owners/${o.id}`)).body).toEqual(o)
  })

  it("refuses an individual customer (400 on customerId) and an unknown one (404 USER_NOT_FOUND)", async () => {
    const person = await create(t, completeIndividual("Ann 001"))
    const r = await t.request("POST", `${V}/beneficial-owners`, { body: owner(person, "Smith") })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: any) => e.field)).toEqual(["customerId"])
    const unknown = await t.request("POST", `${V}/beneficial-owners`, { body: owner("Customer:00000000-0000-4000-8000-000000000000", "Smith") })
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe("USER_NOT_FOUND")
  })

  it("answers 404 REFERENCE_NOT_FOUND for an unknown owner, and to another platform", async () => {
    for (const [method, body] of [["GET", undefined], ["PATCH", { roles: ["UBO"] }]] as const) {
      const r = await t.request(method, `${V}/beneficial-owners/BeneficialOwner:00000000-0000-4000-8000-000000000000`, { body })
      expect(r.status).toBe(404)
      expect(r.body).toMatchObject({ code: "REFERENCE_NOT_FOUND", details: { resource: "BeneficialOwner" } })
    }
    const id = await create(t, businessWith("RN-001"))
    const o = (await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, "Smith") })).body
    await t.engine.platform({ clientId: "other-platform", clientSecret: "other-secret-0123456789" })
    const auth = basic("other-platform", "other-secret-0123456789")
    expect((await t.request("GET", `${V}/beneficial-owners/${o.id}`, { auth })).status).toBe(404)
    expect((await t.request("GET", `${V}/beneficial-owners?customerId=${encodeURIComponent(id)}`, { auth })).body.data).toEqual([])
  })
})
