import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { evmSigner } from "@tessera/core/testing"
import { startCli, tempDir } from "../cli/run-cli.ts"
import { startReceiver } from "./receiver.ts"

/** A receiver that reads each POST and never answers. */
const startHangingReceiver = async () => {
  const received: Array<{ id: string }> = []
  const waiting: Array<ServerResponse> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      waiting.push(res)
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((r) => server.close(() => r()))
    }
  }
}

const until = async (condition: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
  expect(condition()).toBe(true)
}

describe("shutdown while a webhook receiver hangs", () => {
  it("SIGTERM aborts the attempt and exits 0 at once; after a restart on the same database the event is delivered", async () => {
    const db = join(tempDir(), "hooks.sqlite")
    const hanging = await startHangingReceiver()
    const working = await startReceiver()
    try {
      const cli = await startCli(["serve", "--port", "0", "--db", db], { TESSERA_WEBHOOK_URL: hanging.url })
      const url = /listening on (\S+)/.exec(cli.banner)![1]!
      const headers = { authorization: `Basic ${Buffer.from("sandbox-client-id:sandbox-client-secret").toString("base64")}`, "content-type": "application/json" }
      const post = async (path: string, body: unknown) => {
        const res = await fetch(url + path, { method: "POST", headers, body: JSON.stringify(body) })
        return { status: res.status, body: (await res.json()) as any }
      }
      // A wallet's verification is a status change: one EXTERNAL_ACCOUNT.STATUS_UPDATED event.
      const signer = evmSigner()
      const acct = await post("/platform/external-accounts", { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "ETHEREUM_WALLET", address: signer.address } })
      const ch = await post(`/platform/external-accounts/${acct.body.id}/challenge`, { method: "WALLET_SIGNATURE" })
      expect((await post(`/platform/external-accounts/${acct.body.id}/verify`, { signature: signer.sign(ch.body.messageToSign) })).body.status).toBe("ACTIVE")
      await until(() => hanging.received.length === 1)

      const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
        const sent = performance.now()
        cli.child.once("exit", (code) => resolve({ code, ms: performance.now() - sent }))
      })
      cli.child.kill("SIGTERM")
      const { code, ms } = await exited
      expect(code).toBe(0)
      // Well inside the 5 s an attempt may wait for an answer, and the 10 s forced exit.
      expect(ms).toBeLessThan(3000)
      expect(cli.stdout()).toContain("SIGTERM: shutting down")

      const again = await startCli(["serve", "--port", "0", "--db", db], { TESSERA_WEBHOOK_URL: working.url })
      try {
        await until(() => working.received.length === 1)
        expect(working.received[0]!.event.id).toBe(hanging.received[0]!.id)
        // The aborted attempt recorded nothing: the one attempt on record is the delivery.
        const againUrl = /listening on (\S+)/.exec(again.banner)![1]!
        const deadline = Date.now() + 5000
        let events: any
        do events = await (await fetch(`${againUrl}/sandbox/events`, { headers })).json()
        while (events.data[0]?.delivery.deliveredAt === undefined && Date.now() < deadline)
        expect(events.data.map((e: any) => e.delivery.attempts.length)).toEqual([1])
        expect(events.data[0].delivery.deliveredAt).toBeTypeOf("string")
      } finally {
        await again.stop()
      }
    } finally {
      await hanging.close()
      await working.close()
    }
  })
})
