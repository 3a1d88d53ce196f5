import { describe, expect, it } from "vitest"
import { startCli, tempDir } from "./run-cli.ts"
import { startReceiver } from "../webhooks/receiver.ts"
import { join } from "node:path"

/** The CLI's default credentials. */
const AUTH = `Basic ${Buffer.from("sandbox-client-id:sandbox-client-secret").toString("base64")}`

const portOf = (banner: string) => Number(/listening on http:\/\/[^:]+:(\d+)\//.exec(banner)?.[1])

const call = async (port: number, method: string, path: string, body?: unknown) => {
  const res = await fetch(`http://127.0.0.1:${port}/2025-10-13${path}`, {
    method,
    headers: { authorization: AUTH, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: res.status, body: await res.json() }
}

/** Waits until the receiver holds an event of `type` (the worker ticks every 250 ms). */
const waitFor = async (received: ReadonlyArray<{ event: { type: string } }>, type: string) => {
  for (let i = 0; i < 200 && !received.some((r) => r.event.type === type); i++) await new Promise((r) => setTimeout(r, 50))
  return received.filter((r) => r.event.type === type)
}

/** A customer, an invitation from it, and its claim: the platform's INVITATION.CLAIMED to deliver. */
const claimAnInvitation = async (port: number) => {
  const c = await call(port, "POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Cli Inviter" })
  const inv = await call(port, "POST", "/invitations", { inviterUma: c.body.umaAddress })
  expect(inv.status).toBe(201)
  expect((await call(port, "POST", `/invitations/${inv.body.code}/claim`, { inviteeUma: "$friend@other.example" })).status).toBe(200)
  return inv.body.code as string
}

describe("tessera serve delivers webhooks to the configured URL", () => {
  it("without --webhook-url: none configured at start; a URL set by PATCH /config is delivered to while running", async () => {
    const receiver = await startReceiver()
    const cli = await startCli(["serve", "--port", "0", "--db", ":memory:"])
    try {
      expect(cli.banner).toMatch(/webhooks: +\(none yet: PATCH \/config webhookEndpoint/)
      const port = portOf(cli.banner)
      expect((await call(port, "GET", "/config")).body.webhookEndpoint).toBeUndefined()
      expect((await call(port, "PATCH", "/config", { webhookEndpoint: receiver.url })).status).toBe(200)
      expect(receiver.received.map((r) => r.event.type)).toEqual(["TEST"])
      const code = await claimAnInvitation(port)
      const claimed = await waitFor(receiver.received, "INVITATION.CLAIMED")
      expect(claimed.map((r) => (r.event as any).data.code)).toEqual([code])
    } finally {
      await cli.stop()
      await receiver.close()
    }
  })

  it("with --webhook-url: the initial URL, reported by GET /config and delivered to; a database keeps a URL set at run time", async () => {
    const first = await startReceiver()
    const second = await startReceiver()
    const db = join(tempDir(), "hooks.sqlite")
    const cli = await startCli(["serve", "--port", "0", "--db", db, "--webhook-url", first.url])
    try {
      expect(cli.banner).toContain(`webhooks:      ${first.url}`)
      const port = portOf(cli.banner)
      expect((await call(port, "GET", "/config")).body.webhookEndpoint).toBe(first.url)
      await claimAnInvitation(port)
      expect(await waitFor(first.received, "INVITATION.CLAIMED")).toHaveLength(1)
      expect((await call(port, "PATCH", "/config", { webhookEndpoint: second.url })).body.webhookEndpoint).toBe(second.url)
    } finally {
      await cli.stop()
    }
    // Restarted without the flag, the URL set by PATCH is still the one in effect.
    const again = await startCli(["serve", "--port", "0", "--db", db])
    try {
      expect(again.banner).toContain(`webhooks:      ${second.url}`)
      await claimAnInvitation(portOf(again.banner))
      expect(await waitFor(second.received, "INVITATION.CLAIMED")).toHaveLength(1)
    } finally {
      await again.stop()
      await first.close()
      await second.close()
    }
  })
})
