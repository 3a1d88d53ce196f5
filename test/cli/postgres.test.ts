import { describe, expect, it } from "vitest"
import { freshDatabaseUrl, pgUrl } from "../support/postgres.ts"
import { expectOneLineRefusal, runCli, startCli } from "./run-cli.ts"

const auth = `Basic ${Buffer.from("sandbox-client-id:sandbox-client-secret").toString("base64")}`

const origin = (banner: string) => /listening on (http:\/\/[^/\s]+\/2025-10-13)/.exec(banner)![1]!

const createCustomer = async (base: string, platformCustomerId: string) => {
  const res = await fetch(`${base}/customers`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/json" },
    body: JSON.stringify({ customerType: "INDIVIDUAL", platformCustomerId })
  })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as { id: string }
}

describe("tessera serve on PostgreSQL (--db postgres://…)", () => {
  it("serves from the database, keeps its data across restarts, and two servers on it see each other's writes", async () => {
    const url = await freshDatabaseUrl("cli")
    const first = await startCli(["serve", "--port", "0", "--db", url])
    let second: Awaited<ReturnType<typeof startCli>> | undefined
    try {
      expect(first.banner).toMatch(/store: +PostgreSQL postgresql:\/\//)
      const created = await createCustomer(origin(first.banner), "pg-cli-1")
      // A second instance on the same database, started from the variable instead of the flag.
      second = await startCli(["serve", "--port", "0"], { TESSERA_DB: url })
      const res = await fetch(`${origin(second.banner)}/customers/${created.id}`, { headers: { authorization: auth } })
      expect(res.status).toBe(200)
    } finally {
      await first.stop()
      await second?.stop()
    }
    const again = await startCli(["serve", "--port", "0", "--db", url])
    try {
      const list = (await (await fetch(`${origin(again.banner)}/customers`, { headers: { authorization: auth } })).json()) as { data: Array<{ platformCustomerId: string }> }
      expect(list.data.map((c) => c.platformCustomerId)).toEqual(["pg-cli-1"])
    } finally {
      await again.stop()
    }
  })

  it("a database that cannot be reached is one line naming it, the password left out", async () => {
    const bad = new URL(pgUrl())
    bad.username = "tessera"
    bad.password = "hunter2"
    bad.searchParams.set("host", "/nonexistent-tessera-socket-dir")
    const r = await runCli(["serve", "--port", "0", "--db", bad.toString()])
    expectOneLineRefusal(r, /^tessera: cannot use PostgreSQL database "postgresql:\/\/tessera:\*\*\*@.*": .*check that the server runs/)
    expect(r.stderr).not.toContain("hunter2")
  })

  it("a postgres:// value that is not a URL is refused as a flag value", async () => {
    const r = await runCli(["serve", "--port", "0", "--db", "postgres://a b"])
    expectOneLineRefusal(r, /--db/)
  })
})
