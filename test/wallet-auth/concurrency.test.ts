import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mintOidcToken, stamp } from "@tessera/core/testing"
import { freshSchema } from "../support/postgres.ts"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp, newWallet, V } from "../support/wallet.ts"

/**
 * Two servers on one database race 16 identical signed retries (alternating): one 201, fifteen
 * 401, one credential seen from the other server. `loginVia` is where the wallet's session opens.
 */
const raceOneRetry = async (a: TestServer, b: TestServer, loginVia: TestServer) => {
  const w = await newWallet(a)
  const { key } = await loginWithOtp(loginVia, w.emailCredentialId)
  const body = { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub: "race" }) }
  const first = await a.request("POST", `${V}/auth/credentials`, { body })
  const headers = { "service-wallet-signature": stamp(key.privateKey, first.body.payloadToSign), "request-id": first.body.requestId }
  const replies = await Promise.all(
    Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? a : b).request("POST", `${V}/auth/credentials`, { body, headers }))
  )
  expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
  expect(replies.filter((r) => r.status === 401)).toHaveLength(15)
  const creds = await b.request("GET", `${V}/auth/credentials?accountId=${w.accountId}`)
  expect(creds.body.data.filter((c: { type: string }) => c.type === "OAUTH")).toHaveLength(1)
}

/** N identical signed retries at once: the operation runs once, every other answer is 401. */
describe("single use of request ids under concurrency", () => {
  it.each<StoreKind>(["memory", "sqlite", "async-memory", "postgres"])("20 concurrent identical retries on one server (%s) create one credential", async (kind) => {
    const t = await startTestServer(kind)
    try {
      const w = await newWallet(t)
      const { key } = await loginWithOtp(t, w.emailCredentialId)
      const body = { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub: "concurrent" }) }
      const first = await t.request("POST", `${V}/auth/credentials`, { body })
      const headers = { "service-wallet-signature": stamp(key.privateKey, first.body.payloadToSign), "request-id": first.body.requestId }
      const replies = await Promise.all(Array.from({ length: 20 }, () => t.request("POST", `${V}/auth/credentials`, { body, headers })))
      expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
      expect(replies.filter((r) => r.status === 401 && r.body.details.reason === "REQUEST_ID_ALREADY_USED")).toHaveLength(19)
      const creds = await t.request("GET", `${V}/auth/credentials?accountId=${w.accountId}`)
      expect(creds.body.data.filter((c: { type: string }) => c.type === "OAUTH")).toHaveLength(1)
    } finally {
      await t.close()
    }
  })

  it("two servers on one SQLite file, racing the same retry, run the operation once", async () => {
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-race-")), "race.sqlite")
    const a = await startTestServer("sqlite", { filename })
    const b = await startTestServer("sqlite", { filename })
    try {
      await raceOneRetry(a, b, a)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it("two servers on one PostgreSQL schema, racing the same retry, run the operation once", async () => {
    const schema = freshSchema("race")
    const a = await startTestServer("postgres", { pgSchema: schema })
    const b = await startTestServer("postgres", { pgSchema: schema })
    try {
      await raceOneRetry(a, b, b)
    } finally {
      await a.close()
      await b.close()
    }
  })
})
