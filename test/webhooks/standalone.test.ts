import { describe, expect, it } from "vitest"
import { startServer } from "tessera"
import { evmSigner, verifyWebhookSignature } from "@tessera/core/testing"
import { checkResponse } from "../support/openapi-checker.ts"
import { operationFor } from "../support/server.ts"
import { startReceiver } from "./receiver.ts"

/** The standalone server on an in-memory store, sending its webhooks to `webhookUrl`. */
const serverFor = (webhookUrl: string) =>
  startServer({ port: 0, host: "127.0.0.1", db: ":memory:", clientId: "hooks", clientSecret: "hooks-secret", clock: "real", webhookUrl, log: false })

describe("the standalone server delivers webhooks", () => {
  it("TESSERA_WEBHOOK_URL receives signed EXTERNAL_ACCOUNT.STATUS_UPDATED events; the key and the test webhook are served", async () => {
    const receiver = await startReceiver()
    const { engine, server, webhooks } = await serverFor(receiver.url)
    const auth = `Basic ${Buffer.from("hooks:hooks-secret").toString("base64")}`
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(server.url + path, { method, headers: { authorization: auth, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      const json = await res.json()
      expect(checkResponse(operationFor(method, "/2025-10-13" + path), res.status, json).problems).toEqual([])
      return { status: res.status, body: json }
    }
    try {
      const s = evmSigner()
      const acct = await call("POST", "/platform/external-accounts", { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "ETHEREUM_WALLET", address: s.address } })
      const ch = await call("POST", `/platform/external-accounts/${acct.body.id}/challenge`, { method: "WALLET_SIGNATURE" })
      expect((await call("POST", `/platform/external-accounts/${acct.body.id}/verify`, { signature: s.sign(ch.body.messageToSign) })).body.status).toBe("ACTIVE")
      const deadline = Date.now() + 5000
      while (receiver.received.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
      expect(receiver.received.map((r) => r.event.data.status)).toEqual(["ACTIVE"])
      const key = await call("GET", "/sandbox/webhooks/public-key")
      expect(verifyWebhookSignature(key.body.publicKeyPem, receiver.received[0]!.body, receiver.received[0]!.signature)).toBe(true)
      const test = await call("POST", "/sandbox/webhooks/test")
      expect(test.status).toBe(200)
      expect(test.body.response_status).toBe(200)
      const events = await call("GET", "/sandbox/events")
      expect(events.body.data[0].delivery.deliveredAt).toBeTypeOf("string")
    } finally {
      await webhooks.stop()
      await server.close()
      await engine.dispose()
      await receiver.close()
    }
  })

  it("POST /sandbox/webhooks/test: a receiver answering 500 is a failed delivery, 400 WEBHOOK_DELIVERY_ERROR with the receiver's status", async () => {
    const receiver = await startReceiver((event) => (event.type === "TEST" ? 500 : 200))
    const { engine, server, webhooks } = await serverFor(receiver.url)
    try {
      const res = await fetch(server.url + "/sandbox/webhooks/test", {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from("hooks:hooks-secret").toString("base64")}` }
      })
      const body = await res.json()
      expect(checkResponse(operationFor("POST", "/2025-10-13/sandbox/webhooks/test"), res.status, body).problems).toEqual([])
      expect(res.status).toBe(400)
      expect(body).toMatchObject({ status: 400, code: "WEBHOOK_DELIVERY_ERROR", details: { url: receiver.url, response_status: 500 } })
      expect(receiver.received.map((r) => r.answered)).toEqual([500])
    } finally {
      await webhooks.stop()
      await server.close()
      await engine.dispose()
      await receiver.close()
    }
  })
})
