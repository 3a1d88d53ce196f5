import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { EXCHANGE_RATE_LIFETIME_MS } from "../../packages/core/src/limits.ts"
import { forReceiving, forSending, knownCurrencyCodes, rateFor } from "../../packages/core/src/domain/money/exchange-rate.ts"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"

const V = "/2025-10-13"
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0)
const code = fc.constantFrom(...knownCurrencyCodes)

describe("sandbox exchange rates (pure)", () => {
  it("are a function of the pair and the rate period: the same all through a period", () => {
    fc.assert(
      fc.property(code, code, fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: EXCHANGE_RATE_LIFETIME_MS - 1 }), (s, r, period, offset) => {
        const start = rateFor(s, r, period * EXCHANGE_RATE_LIFETIME_MS)!
        expect(rateFor(s, r, period * EXCHANGE_RATE_LIFETIME_MS + offset)).toEqual(start)
        expect(start.expiresAtMs - start.updatedAtMs).toBe(EXCHANGE_RATE_LIFETIME_MS)
        expect(start.exchangeRate).toBeGreaterThan(0)
        if (s === r) expect(start.exchangeRate).toBe(1)
      })
    )
  })

  it("move from one period to the next for currencies that float, never for pegged ones", () => {
    const moves = Array.from({ length: 20 }, (_, i) => rateFor("USD", "EUR", T0 + i * EXCHANGE_RATE_LIFETIME_MS)!.exchangeRate)
    expect(new Set(moves).size).toBeGreaterThan(10)
    // Dollars per euro (the reference: sending units per receiving unit), within the drift of 1.08.
    for (const x of moves) expect(Math.abs(x / 1.08 - 1)).toBeLessThan(0.0026)
    expect(rateFor("USDC", "USD", T0)!.exchangeRate).toBe(1)
    expect(rateFor("USD", "XYZ", T0)).toBeUndefined()
  })

  it("charge fees out of the amount sent; a locked receiving amount needs the least sending amount that delivers it", () => {
    fc.assert(
      fc.property(code, code, fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 10_000_000 }), (s, r, period, amount) => {
        const rate = rateFor(s, r, period * EXCHANGE_RATE_LIFETIME_MS)!
        const sent = forSending(rate, amount)
        expect(sent.fees.total).toBeGreaterThanOrEqual(sent.fees.fixed)
        expect(sent.receivingAmount).toBeGreaterThanOrEqual(0)
        const locked = forReceiving(rate, amount)
        expect(locked.receivingAmount).toBe(amount)
        expect(forSending(rate, locked.sendingAmount).receivingAmount).toBeGreaterThanOrEqual(amount)
        expect(forSending(rate, locked.sendingAmount - 1).receivingAmount).toBeLessThan(amount)
      })
    )
  })
})

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("GET /exchange-rates (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  it("lists corridors from a source, filtered by repeated destinationCurrency, with amounts for sendingAmount", async () => {
    const r = await t.request("GET", `${V}/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&destinationCurrency=MXN&sendingAmount=50000`)
    expect(r.status).toBe(200)
    expect(r.body.data.map((d: { destinationCurrency: { code: string } }) => d.destinationCurrency.code)).toEqual(["EUR", "MXN"])
    const eur = r.body.data[0]
    expect(eur).toMatchObject({ sourceCurrency: { code: "USD", decimals: 2 }, sendingAmount: 50000, destinationPaymentRail: "SEPA_INSTANT" })
    expect(eur.receivingAmount).toBe(Math.floor((50000 - eur.fees.total) / eur.exchangeRate + 1e-9))
    const one = await t.request("GET", `${V}/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN`)
    expect(one.body.data).toHaveLength(1)
    expect(one.body.data[0].sendingAmount).toBe(10000)
  })

  it("answers every corridor without filters, and nothing for a currency it does not trade", async () => {
    const all = await t.request("GET", `${V}/exchange-rates`)
    expect(all.body.data.length).toBeGreaterThan(50)
    expect((await t.request("GET", `${V}/exchange-rates?sourceCurrency=ZZZ`)).body.data).toEqual([])
  })

  it("keeps a rate for five minutes of engine time, then moves on", async () => {
    const get = async () => (await t.request("GET", `${V}/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR`)).body.data[0]
    const first = await get()
    const start = Date.parse(first.updatedAt)
    const clock = (await t.request("GET", `${V}/sandbox/clock`)).body
    const now = Date.parse(clock.now ?? clock.time ?? clock.currentTime)
    const left = Math.ceil((start + EXCHANGE_RATE_LIFETIME_MS - now) / 1000)
    if (left > 1) {
      await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: left - 1 } })
      expect(await get()).toEqual(first)
    }
    await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 1 } })
    const next = await get()
    expect(Date.parse(next.updatedAt)).toBe(start + EXCHANGE_RATE_LIFETIME_MS)
  })

  it("refuses malformed filters with 400 naming each field", async () => {
    const r = await t.request("GET", `${V}/exchange-rates?sourceCurrency=usd&destinationCurrency=1&sendingAmount=-5`)
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["destinationCurrency", "sendingAmount", "sourceCurrency"])
  })
})
