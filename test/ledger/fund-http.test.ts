import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newWallet } from "../support/wallet.ts"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { asPlatform, exportState } from "../sandbox/support.ts"
import { referenceSchemaProblems } from "../support/openapi-checker.ts"

const V = "/2025-10-13"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("sandbox funding and ledger balances over HTTP (%s store)", (kind) => {
  let t: TestServer
  let platformUsd: string
  beforeAll(async () => {
    t = await startTestServer(kind)
    platformUsd = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0].id
  })
  afterAll(async () => t.close())

  const fund = (id: string, body: unknown) => t.request("POST", `${V}/sandbox/internal-accounts/${id}/fund`, { body })

  it("funds an account: 200 with the InternalAccount, balance and totalBalance raised, lists showing the same", async () => {
    const before = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0]
    const r = await fund(platformUsd, { amount: 100000 })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ id: platformUsd, balance: { amount: before.balance.amount + 100000, currency: { code: "USD", decimals: 2 } } })
    expect(r.body.totalBalance.amount).toBe(before.totalBalance.amount + 100000)
    const again = await fund(platformUsd, { amount: 1 })
    expect(again.body.balance.amount).toBe(before.balance.amount + 100001)
    const listed = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0]
    expect(listed).toEqual(again.body)
  })

  it("funds a customer's wallet, seen by GET /customers/internal-accounts", async () => {
    const w = await newWallet(t)
    const r = await fund(w.accountId, { amount: 2_500_000 })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ type: "EMBEDDED_WALLET", balance: { amount: 2_500_000, currency: { code: "USDB", decimals: 6 } }, totalBalance: { amount: 2_500_000 } })
    const listed = await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(w.customerId)}`)
    expect(listed.body.data[0].balance.amount).toBe(2_500_000)
  })

  it("publishes INTERNAL_ACCOUNT.BALANCE_UPDATED with the account after each funding, in the reference's webhook shape", async () => {
    const w = await newWallet(t)
    await fund(w.accountId, { amount: 10 })
    const after = await fund(w.accountId, { amount: 5 })
    const events = (await t.request("GET", `${V}/sandbox/events?resourceId=${encodeURIComponent(w.accountId)}`)).body.data
    const balanceEvents = events.filter((e: { type: string }) => e.type === "INTERNAL_ACCOUNT.BALANCE_UPDATED")
    expect(balanceEvents.map((e: { data: { balance: { amount: number } } }) => e.data.balance.amount)).toEqual([10, 15])
    expect(balanceEvents[1].data).toEqual(after.body)
    for (const e of balanceEvents) expect(referenceSchemaProblems("InternalAccountStatusWebhook", { id: e.id, type: e.type, timestamp: e.timestamp, data: e.data })).toEqual([])
  })

  it("refuses amounts outside the reference's limits with 400 naming the field, and changes nothing", async () => {
    const before = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0]
    for (const amount of [0, -1, 1.5, 100_000_000_001, "100", null, 2 ** 53]) {
      const r = await fund(platformUsd, { amount })
      expect(r.status, JSON.stringify(amount)).toBe(400)
      expect(r.body.code).toBe("INVALID_INPUT")
      expect(r.body.details.errors.map((e: { field: string }) => e.field)).toEqual(["amount"])
    }
    const missing = await fund(platformUsd, {})
    expect(missing.status).toBe(400)
    expect(missing.body.details.errors.map((e: { field: string }) => e.field)).toEqual(["amount"])
    expect((await fund(platformUsd, { amount: 100_000_000_000 })).status).toBe(200)
    const after = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0]
    expect(after.balance.amount).toBe(before.balance.amount + 100_000_000_000)
  })

  it("answers 404 REFERENCE_NOT_FOUND for an unknown, malformed or other platform's account", async () => {
    const other = await asPlatform(t, `other-${kind}`)
    const theirs = (await other.request("GET", `${V}/platform/internal-accounts`)).body.data[0].id
    for (const id of ["InternalAccount:00000000-0000-4000-8000-000000000000", "nope", theirs]) {
      const r = await fund(id, { amount: 1 })
      expect(r.status, id).toBe(404)
      expect(r.body).toMatchObject({ code: "REFERENCE_NOT_FOUND", details: { resource: "InternalAccount" } })
    }
    expect((await other.request("GET", `${V}/platform/internal-accounts`)).body.data[0].balance.amount).toBe(0)
  })

  it("carries the ledger through state export and import, and a reset empties it", async () => {
    const p = await asPlatform(t, `ledger-state-${kind}`)
    const usd = (await p.request("GET", `${V}/platform/internal-accounts`)).body.data[0].id
    await p.request("POST", `${V}/sandbox/internal-accounts/${usd}/fund`, { body: { amount: 700 } })
    const doc = await exportState(p)
    expect(doc.collections.ledgerMovements).toHaveLength(1)
    expect(doc.collections.ledgerMovements[0]).toMatchObject({ kind: "SANDBOX_FUNDING", reference: usd })
    expect(doc.collections.ledgerBalances.map((b: { id: string; available: number }) => [b.id, b.available]).sort()).toEqual([
      [usd, 700],
      ["world:funding:USD", -700]
    ])

    expect((await p.request("POST", `${V}/sandbox/reset`)).status).toBe(200)
    const fresh = await exportState(p)
    expect(fresh.collections.ledgerMovements).toEqual([])
    expect(fresh.collections.ledgerBalances).toEqual([])

    expect((await p.request("PUT", `${V}/sandbox/state`, { body: doc })).status).toBe(200)
    const { exportedAt: _a, ...back } = await exportState(p)
    const { exportedAt: _b, ...original } = doc
    expect(back).toEqual(original)
    // The balance keeps moving from where the document left it.
    const more = await p.request("POST", `${V}/sandbox/internal-accounts/${usd}/fund`, { body: { amount: 300 } })
    expect(more.body.balance.amount).toBe(1000)
  })

  it("refuses a document whose ledger does not add up, listing every problem, and keeps the state", async () => {
    const p = await asPlatform(t, `ledger-bad-${kind}`)
    const usd = (await p.request("GET", `${V}/platform/internal-accounts`)).body.data[0].id
    await p.request("POST", `${V}/sandbox/internal-accounts/${usd}/fund`, { body: { amount: 700 } })
    const doc = await exportState(p)
    const c = doc.collections
    const tampered = {
      ...doc,
      collections: {
        ...c,
        // Money made from nothing: the account richer than its journal, the movement unbalanced.
        ledgerBalances: c.ledgerBalances.map((b: { id: string }) => (b.id === usd ? { ...b, available: 900 } : b)),
        ledgerMovements: c.ledgerMovements.map((m: { entries: Array<{ amount: number }> }) => ({ ...m, entries: [m.entries[0], { ...m.entries[1], amount: 800 }] }))
      }
    }
    const r = await p.request("PUT", `${V}/sandbox/state`, { body: tampered })
    expect(r.status).toBe(400)
    const fields = r.body.details.errors.map((e: { field: string }) => e.field)
    expect(fields).toContain("collections.ledgerMovements.0.entries")
    expect(fields.some((f: string) => f.startsWith("collections.ledgerBalances."))).toBe(true)
    expect(fields.some((f: string) => f.endsWith("balance.amount"))).toBe(true)
    const after = await exportState(p)
    expect(after.collections.ledgerBalances).toEqual(c.ledgerBalances)
  })
})
