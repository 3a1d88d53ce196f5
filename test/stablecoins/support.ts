import { expect } from "vitest"
import { sparkSigner } from "@tessera/core/testing"
import type { TestServer } from "../support/server.ts"
import { usd } from "../external-accounts/support.ts"

export const V = "/2025-10-13"

let serial = 0
/** A fresh Idempotency-Key. */
export const key = () => `key-${++serial}-${Date.now()}`

export const post = (t: TestServer, path: string, body: unknown, idempotencyKey: string | null = key()) =>
  t.request("POST", `${V}${path}`, { body, ...(idempotencyKey === null ? {} : { headers: { "idempotency-key": idempotencyKey } }) })

/** Links provider credentials (ACTIVE unless the apiClientId's suffix says otherwise) and answers the link. */
export const link = async (t: TestServer, apiClientId = `client-${++serial}-x`, over: Record<string, unknown> = {}) => {
  const r = await post(t, "/stablecoin-provider-accounts", { provider: "BRALE", apiClientId, apiClientSecret: "secret-456", ...over })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body
}

/** A valid-looking Spark token identifier, distinct per call. */
export const tokenId = () => {
  const bech32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
  return `btkn1${Array.from(crypto.getRandomValues(new Uint8Array(38)), (b) => bech32[b % 32]).join("")}`
}

/** Registers a stablecoin (symbol made unique) through the platform's one ACTIVE link, or the one named. */
export const register = async (t: TestServer, over: Record<string, unknown> = {}) => {
  const r = await post(t, "/stablecoins", { providerTokenIdentifier: `ACME${++serial}`, networkTokenIdentifier: tokenId(), network: "SPARK", ...over })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body
}

/** A platform Spark wallet external account (ACTIVE). */
export const spark = async (t: TestServer) => {
  const r = await t.request("POST", `${V}/platform/external-accounts`, { body: { currency: "BTC", ownershipType: "THIRD_PARTY", accountInfo: { accountType: "SPARK_WALLET", address: sparkSigner().address, beneficiary: { beneficiaryType: "BUSINESS", legalName: "Acme Treasury" } } } })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id as string
}

/** A platform USD bank account (ACTIVE: its number ends in no sandbox suffix). */
export const bank = async (t: TestServer) => {
  const r = await t.request("POST", `${V}/platform/external-accounts`, { body: usd(`55${String(++serial).padStart(5, "0")}9`) })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id as string
}

/** The platform's USD internal account, funded with `cents` more. */
export const platformUsd = async (t: TestServer, cents = 0) => {
  const id = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data.find((a: any) => a.balance.currency.code === "USD").id as string
  if (cents > 0) expect((await t.request("POST", `${V}/sandbox/internal-accounts/${id}/fund`, { body: { amount: cents } })).status).toBe(200)
  return id
}

export const balance = async (t: TestServer, accountId: string) =>
  (await t.request("GET", `${V}/platform/internal-accounts`)).body.data.find((a: any) => a.id === accountId).balance.amount as number

export const advance = async (t: TestServer, seconds: number) => {
  const r = await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds } })
  expect(r.status).toBe(200)
}

export const operation = async (t: TestServer, id: string) => {
  const r = await t.request("GET", `${V}/stablecoin-operations/${id}`)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return r.body
}

/** Dollars as a token amount of 6 decimals: `tokens(10.02)` is "10020000". */
export const tokens = (dollars: number) => String(Math.round(dollars * 100) * 10_000)
