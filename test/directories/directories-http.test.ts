import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { sandboxCurrencies, sandboxInstitutions, sandboxUmaProviders, sandboxVasps } from "@tessera/core"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { V } from "../support/wallet.ts"
import { wallet } from "../external-accounts/support.ts"

/** Every page of a list from the first, following nextCursor; fails on a cycle. */
const walk = async (t: TestServer, path: string, query: string) => {
  const pages: Array<any> = []
  let cursor: string | undefined
  do {
    const q = [query, cursor === undefined ? "" : `cursor=${encodeURIComponent(cursor)}`].filter((s) => s !== "").join("&")
    const r = await t.request("GET", `${V}${path}${q === "" ? "" : `?${q}`}`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    pages.push(r.body)
    cursor = r.body.hasMore ? r.body.nextCursor : undefined
    expect(pages.length).toBeLessThan(200)
  } while (cursor !== undefined)
  return pages
}

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("directories over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  it("GET /discoveries: all institutions without filters; by country, by currency, by both; none for an unknown corridor", async () => {
    const all = await t.request("GET", `${V}/discoveries`)
    expect(all.status).toBe(200)
    expect(all.body.data).toHaveLength(sandboxInstitutions.length)
    const ph = await t.request("GET", `${V}/discoveries?country=PH&currency=PHP`)
    expect(ph.body.data.map((d: any) => d.bankName)).toEqual(expect.arrayContaining(["BDO Unibank", "BPI"]))
    for (const d of ph.body.data) expect(d).toMatchObject({ country: "PH", currency: "PHP" })
    const eur = await t.request("GET", `${V}/discoveries?currency=EUR`)
    expect(new Set(eur.body.data.map((d: any) => d.country))).toEqual(new Set(["DE", "FR", "ES"]))
    const de = await t.request("GET", `${V}/discoveries?country=DE`)
    expect(de.body.data.every((d: any) => d.country === "DE" && d.currency === "EUR")).toBe(true)
    const none = await t.request("GET", `${V}/discoveries?country=JP`)
    expect([none.status, none.body.data]).toEqual([200, []])
  })

  it("GET /discoveries: 400 lists both malformed filters", async () => {
    const bad = await t.request("GET", `${V}/discoveries?country=philippines&currency=p`)
    expect([bad.status, bad.body.code]).toEqual([400, "INVALID_INPUT"])
    expect(bad.body.details.errors.map((e: any) => e.field).sort()).toEqual(["country", "currency"])
  })

  it("GET /vasps: the directory in pages of `limit`, with its totalCount; every VASP once", async () => {
    const first = await t.request("GET", `${V}/vasps?limit=5`)
    expect(first.body).toMatchObject({ hasMore: true, totalCount: sandboxVasps.length })
    expect(first.body.data).toHaveLength(5)
    const pages = await walk(t, "/vasps", "limit=7")
    expect(pages.flatMap((p) => p.data)).toEqual(sandboxVasps)
    expect(pages.at(-1).hasMore).toBe(false)
    expect(pages.at(-1).nextCursor).toBeUndefined()
    const whole = await t.request("GET", `${V}/vasps?limit=100`)
    expect(whole.body.data.map((v: any) => v.vaspName)).toContain("Kraken")
  })

  it("GET /vasps and /uma-providers: 400 lists every bad paging parameter", async () => {
    for (const path of ["/vasps", "/uma-providers"]) {
      const bad = await t.request("GET", `${V}${path}?limit=0&cursor=%%%`)
      expect([bad.status, bad.body.code], path).toEqual([400, "INVALID_INPUT"])
      expect(bad.body.details.errors.map((e: any) => e.field).sort()).toEqual(["cursor", "limit"])
      const big = await t.request("GET", `${V}${path}?limit=101`)
      expect(big.body.details.errors.map((e: any) => e.field)).toEqual(["limit"])
    }
    const filters = await t.request("GET", `${V}/uma-providers?countryCode=usa&currencyCode=1&hasBlockedProviders=maybe&sortOrder=up`)
    expect(filters.body.details.errors.map((e: any) => e.field).sort()).toEqual(["countryCode", "currencyCode", "hasBlockedProviders", "sortOrder"])
  })

  it("GET /uma-providers: Z to A by default, A to Z with sortOrder=asc; filters by region, currency and allow list", async () => {
    const desc = await t.request("GET", `${V}/uma-providers?limit=100`)
    expect(desc.status).toBe(200)
    const names = desc.body.data.map((p: any) => p.name)
    expect(names).toEqual([...sandboxUmaProviders.map((p) => p.name)].sort((a, b) => b.localeCompare(a, "en")))
    const asc = await t.request("GET", `${V}/uma-providers?limit=100&sortOrder=asc`)
    expect(asc.body.data.map((p: any) => p.name)).toEqual([...names].reverse())
    const blocked = desc.body.data.filter((p: any) => !p.allowListStatus)
    expect(blocked.length).toBeGreaterThan(0)
    const allowed = await t.request("GET", `${V}/uma-providers?limit=100&hasBlockedProviders=false`)
    expect(allowed.body.data.every((p: any) => p.allowListStatus)).toBe(true)
    expect(allowed.body.totalCount).toBe(desc.body.totalCount - blocked.length)
    const mx = await t.request("GET", `${V}/uma-providers?countryCode=MX&currencyCode=MXN`)
    expect(mx.body.data.length).toBeGreaterThan(0)
    for (const p of mx.body.data) {
      expect(p.supportedRegions).toContain("MX")
      expect(p.supportedCurrencies.map((c: any) => c.code)).toContain("MXN")
    }
    const sandbox = desc.body.data.find((p: any) => p.domain === "sandbox.uma.money")
    expect(sandbox.supportedCurrencies[0]).toEqual({ code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 })
  })

  it("a custodial wallet's vaspName must be a VASP of the directory, spelled as it lists it", async () => {
    const a = "0x" + "cd".repeat(20)
    const body = (vaspName: string) => wallet("POLYGON_WALLET", a, { accountInfo: { accountType: "POLYGON_WALLET", address: a, vaspName } })
    for (const name of ["Nowhere Exchange", "kraken"]) {
      const r = await t.request("POST", `${V}/platform/external-accounts`, { body: body(name) })
      expect([r.status, r.body.details?.errors?.map((e: any) => e.field)], name).toEqual([400, ["accountInfo.vaspName"]])
    }
    const listed = (await t.request("GET", `${V}/vasps?limit=100`)).body.data.find((v: any) => v.vaspName === "Coinbase").vaspName
    const ok = await t.request("POST", `${V}/platform/external-accounts`, { body: body(listed) })
    expect([ok.status, ok.body.status], JSON.stringify(ok.body)).toEqual([201, "ACTIVE"])
  })

  it("walking every page yields every record once, whatever the page size and filters (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 15 }),
        fc.constantFrom("asc", "desc"),
        fc.constantFrom(undefined, "US", "MX"),
        fc.boolean(),
        async (limit, sortOrder, countryCode, hideBlocked) => {
          const query = [`limit=${limit}`, `sortOrder=${sortOrder}`, countryCode === undefined ? "" : `countryCode=${countryCode}`, hideBlocked ? "hasBlockedProviders=false" : ""]
            .filter((s) => s !== "")
            .join("&")
          const pages = await walk(t, "/uma-providers", query)
          const seen = pages.flatMap((p) => p.data.map((d: any) => d.name))
          const expected = sandboxUmaProviders.filter((p) => (countryCode === undefined || p.supportedRegions.includes(countryCode)) && (!hideBlocked || p.allowListed))
          expect(seen.length).toBe(expected.length)
          expect(new Set(seen)).toEqual(new Set(expected.map((p) => p.name)))
          for (const p of pages) expect(p.totalCount).toBe(expected.length)
          for (const p of pages.slice(0, -1)) expect(p.data).toHaveLength(limit)
          const vasps = await walk(t, "/vasps", `limit=${limit}`)
          expect(vasps.flatMap((p) => p.data.map((v: any) => v.vaspName))).toEqual(sandboxVasps.map((v) => v.vaspName))
        }
      ),
      { numRuns: 15 }
    )
  })
})

describe("the directory tables agree with the rest of the sandbox", () => {
  it("every discovery corridor and UMA provider currency is a currency of the sandbox market", () => {
    const codes = new Set(sandboxCurrencies.map((c) => c.code))
    for (const i of sandboxInstitutions) expect(codes, i.bankName).toContain(i.currency)
    for (const p of sandboxUmaProviders) for (const c of p.supportedCurrencies) expect(codes, p.name).toContain(c)
  })

  it("VASP names are unique, so a vaspName names one VASP", () => {
    expect(new Set(sandboxVasps.map((v) => v.vaspName)).size).toBe(sandboxVasps.length)
  })
})
