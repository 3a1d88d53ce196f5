import { join } from "node:path"
import Database from "better-sqlite3"
import { afterEach, describe, expect, it } from "vitest"
import { mintOidcToken, stamp } from "@tessera/core/testing"
import { type RunningCli, startCli, tempDir } from "../cli/run-cli.ts"
import { checkResponse, operationFor } from "../support/openapi-checker.ts"
import { checkedRequester, individual } from "../support/server.ts"
import { type Client, loginWithOtp, newWallet, V } from "../support/wallet.ts"

const CLIENT_ID = "kill-client"
const CLIENT_SECRET = "kill-secret-0123456789"
const AUTH = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`

const CREATORS = 8
const SIGNERS = 4
// The server is killed once this many writes were acknowledged: mid-load, whatever the machine's speed.
const KILL_AFTER_CUSTOMERS = 120
const KILL_AFTER_FLOWS = 16

interface Server {
  readonly cli: RunningCli
  readonly origin: string
  readonly client: Client
}

interface Answer {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly body: any
}

/** `tessera serve` on `file` (group commit on: the default), the request log off. */
const serveOn = async (file: string): Promise<Server> => {
  const cli = await startCli(["serve", "--port", "0", "--db", file, "--client-id", CLIENT_ID], { TESSERA_CLIENT_SECRET: CLIENT_SECRET, TESSERA_LOG: "off" })
  const origin = /listening on (http:\/\/[^/\s]+)/.exec(cli.banner)?.[1]
  expect(origin, cli.banner).toBeDefined()
  return { cli, origin: origin!, client: { request: checkedRequester(origin!, AUTH) } }
}

const running: Array<RunningCli> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => (c.child.exitCode === null && c.child.signalCode === null ? c.stop() : undefined)))
})

/**
 * The durability contract under load: a 2xx means the change is committed and synced. Twelve
 * clients write at once (customers, and signed-retry flows that add a credential), the server
 * is SIGKILLed mid-load, and a new server on the same file must show every acknowledged write,
 * whole: answering before the commit would lose the writes answered just before the kill.
 */
describe("SQLite: SIGKILL under concurrent writes", () => {
  it("a restarted server has every write acknowledged before the kill, each applied whole", async () => {
    const file = join(tempDir(), "kill.sqlite")
    const first = await serveOn(file)
    running.push(first.cli)
    const t = first.client

    // Each signer: a wallet logged in before the load starts.
    const signers = await Promise.all(
      Array.from({ length: SIGNERS }, async (_, i) => {
        const w = await newWallet(t, `signer${i}@example.com`)
        return { ...w, key: (await loginWithOtp(t, w.emailCredentialId)).key }
      })
    )

    // The load's requests are checked against the reference OpenAPI after the kill, so the kill
    // follows the acknowledgement that triggers it as closely as possible.
    const answers: Array<Answer> = []
    const send = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
      const res = await fetch(first.origin + path, {
        method,
        headers: { authorization: AUTH, "content-type": "application/json", ...headers },
        body: JSON.stringify(body)
      })
      const answer = { method, path, status: res.status, body: JSON.parse(await res.text()) }
      answers.push(answer)
      return answer
    }
    const customers: Array<{ id: string; body: unknown }> = []
    const flows: Array<{ accountId: string; credentialId: string; body: unknown; headers: Record<string, string> }> = []
    let killed = false
    let kill: () => void = () => {}
    const killedNow = new Promise<void>((resolve) => (kill = resolve))
    const maybeKill = () => {
      if (!killed && customers.length >= KILL_AFTER_CUSTOMERS && flows.length >= KILL_AFTER_FLOWS) {
        killed = true
        first.cli.child.kill("SIGKILL")
        kill()
      }
    }
    // A request cut off by the kill rejects (the connection drops): it was never acknowledged.
    const untilKilled = async (write: (n: number) => Promise<void>) => {
      for (let n = 0; !killed; n++) {
        try {
          await write(n)
        } catch (e) {
          if (!killed) throw e
        }
        maybeKill()
      }
    }
    const load = [
      ...Array.from({ length: CREATORS }, (_, c) =>
        untilKilled(async (n) => {
          const r = await send("POST", `${V}/customers`, individual({ email: `c${c}-${n}@example.com`, fullName: `Killed ${c} ${n}` }))
          if (r.status === 201) customers.push({ id: r.body.id, body: r.body })
        })
      ),
      ...signers.map((s, c) =>
        untilKilled(async (n) => {
          const body = { type: "OAUTH", accountId: s.accountId, oidcToken: mintOidcToken({ sub: `kill-${c}-${n}` }) }
          const challenge = await send("POST", `${V}/auth/credentials`, body)
          if (challenge.status !== 202) return
          const headers = { "service-wallet-signature": stamp(s.key.privateKey, challenge.body.payloadToSign), "request-id": challenge.body.requestId }
          const r = await send("POST", `${V}/auth/credentials`, body, headers)
          if (r.status === 201) flows.push({ accountId: s.accountId, credentialId: r.body.id, body, headers })
        })
      )
    ]
    await killedNow
    await Promise.all(load)
    await new Promise<void>((resolve) => (first.cli.child.exitCode !== null || first.cli.child.signalCode !== null ? resolve() : first.cli.child.once("exit", () => resolve())))
    expect(first.cli.child.signalCode).toBe("SIGKILL")
    for (const a of answers) {
      const operationId = operationFor(a.method, a.path)
      expect(checkResponse(operationId, a.status, a.body).problems, `${a.method} ${a.path} → ${a.status}`).toEqual([])
      expect([201, 202], JSON.stringify(a.body)).toContain(a.status)
    }

    const second = await serveOn(file)
    running.push(second.cli)
    const u = second.client
    for (const c of customers) {
      const got = await u.request("GET", `${V}/customers/${c.id}`)
      expect(got.status, c.id).toBe(200)
      expect(got.body).toEqual(c.body)
      // Created in the same transaction as the customer: its account, and that account's email credential.
      const accounts = await u.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`)
      expect(accounts.body.data, c.id).toHaveLength(1)
      const creds = await u.request("GET", `${V}/auth/credentials?accountId=${encodeURIComponent(accounts.body.data[0].id)}`)
      expect(creds.body.data.map((x: { type: string }) => x.type), c.id).toEqual(["EMAIL_OTP"])
    }
    for (const s of signers) {
      const creds = await u.request("GET", `${V}/auth/credentials?accountId=${encodeURIComponent(s.accountId)}&limit=100`)
      const ids = new Set(creds.body.data.map((x: { id: string }) => x.id))
      for (const f of flows.filter((f) => f.accountId === s.accountId)) expect(ids.has(f.credentialId), f.credentialId).toBe(true)
    }
    // The retry that created each credential consumed its Request-Id in the same transaction.
    for (const f of flows.slice(-SIGNERS * 2)) {
      const again = await u.request("POST", `${V}/auth/credentials`, { body: f.body, headers: f.headers })
      expect(again.status).toBe(401)
      expect(again.body.details.reason).toBe("REQUEST_ID_ALREADY_USED")
    }
    await second.cli.stop()
    const db = new Database(file, { readonly: true })
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok")
    } finally {
      db.close()
    }
  }, 120_000)
})
