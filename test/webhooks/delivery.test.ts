import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import {
  createExternalAccount,
  listEvents,
  sendTestWebhook,
  startOwnershipChallenge,
  verifyOwnership
} from "@tessera/core/operations"
import {
  deliverAll,
  makeEngine,
  type PlatformRecord,
  TimeControl,
  webhookPublicKey
} from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { evmSigner, verifyWebhookSignature } from "@tessera/core/testing"
import { startReceiver } from "./receiver.ts"

const engineOn = (store: "memory" | string) =>
  makeEngine({ store: store === "memory" ? MemoryStore.layer : SqliteStore.layer({ filename: store }), clock: "virtual", clockStartMs: Date.UTC(2026, 5, 1) })

/** A wallet whose status changes twice (challenge after a failed verify, then ACTIVE): three events. */
const walletWithEvents = async (engine: ReturnType<typeof engineOn>, platform: PlatformRecord) => {
  const s = evmSigner()
  const created: any = await engine.run(
    createExternalAccount(platform, { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "ETHEREUM_WALLET", address: s.address } }, "platform")
  )
  const id = created.body.id as string
  const ch1: any = await engine.run(startOwnershipChallenge(platform, id, { method: "WALLET_SIGNATURE" }))
  await engine.runtime.runPromiseExit(verifyOwnership(platform, id, { signature: evmSigner().sign(ch1.body.messageToSign) }))
  const ch2: any = await engine.run(startOwnershipChallenge(platform, id, { method: "WALLET_SIGNATURE" }))
  await engine.run(verifyOwnership(platform, id, { signature: s.sign(ch2.body.messageToSign) }))
  return id
}

const advance = (engine: ReturnType<typeof engineOn>, seconds: number) => engine.run(Effect.flatMap(TimeControl, (t) => t.advance(seconds)))

describe("webhook delivery", () => {
  it("POSTs each status change as a signed envelope, in order, once", async () => {
    const receiver = await startReceiver()
    const engine = engineOn("memory")
    try {
      const platform = await engine.platform({ clientId: "p", clientSecret: "s", webhookUrl: receiver.url })
      const id = await walletWithEvents(engine, platform)
      // One pass sends the oldest pending event of each resource: three passes, three events.
      for (let i = 0; i < 4; i++) await engine.run(deliverAll)
      expect(receiver.received.map((r) => r.event.data.status)).toEqual(["UNVERIFIED", "PENDING_OWNERSHIP_VERIFICATION", "ACTIVE"])
      const { publicKeyPem, publicKeyHex } = await engine.run(webhookPublicKey)
      for (const r of receiver.received) {
        expect(r.event).toMatchObject({ type: "EXTERNAL_ACCOUNT.STATUS_UPDATED", data: { id } })
        expect(r.event.id).toMatch(/^Webhook:/)
        expect(verifyWebhookSignature(publicKeyPem, r.body, r.signature)).toBe(true)
        expect(verifyWebhookSignature(publicKeyHex, r.body, r.gridSignature)).toBe(true)
        expect(verifyWebhookSignature(publicKeyPem, r.body + " ", r.signature)).toBe(false)
      }
      const events: any = await engine.run(listEvents(platform, {}))
      expect(events.data.every((e: any) => e.delivery.deliveredAt !== undefined && e.delivery.attempts.length === 1)).toBe(true)
    } finally {
      await engine.dispose()
      await receiver.close()
    }
  })

  it("retries a failing receiver with exponential backoff until it recovers; later events of the resource wait", async () => {
    let failuresLeft = 3
    const receiver = await startReceiver(() => (failuresLeft-- > 0 ? 503 : 200))
    const engine = engineOn("memory")
    try {
      const platform = await engine.platform({ clientId: "p", clientSecret: "s", webhookUrl: receiver.url })
      await walletWithEvents(engine, platform)
      await engine.run(deliverAll) // attempt 1 fails; next in 1 s
      await engine.run(deliverAll) // not due yet: nothing sent
      expect(receiver.received).toHaveLength(1)
      await advance(engine, 1)
      await engine.run(deliverAll) // attempt 2 fails; next in 2 s
      await advance(engine, 1)
      await engine.run(deliverAll)
      expect(receiver.received).toHaveLength(2)
      await advance(engine, 1)
      await engine.run(deliverAll) // attempt 3 fails; next in 4 s
      await advance(engine, 4)
      for (let i = 0; i < 4; i++) await engine.run(deliverAll)
      expect(receiver.received.map((r) => [r.event.data.status, r.answered])).toEqual([
        ["UNVERIFIED", 503],
        ["UNVERIFIED", 503],
        ["UNVERIFIED", 503],
        ["UNVERIFIED", 200],
        ["PENDING_OWNERSHIP_VERIFICATION", 200],
        ["ACTIVE", 200]
      ])
      const first: any = (await engine.run(listEvents(platform, {}))).data[0]
      expect(first.delivery.attempts.map((a: any) => a.status)).toEqual([503, 503, 503, 200])
    } finally {
      await engine.dispose()
      await receiver.close()
    }
  })

  it("survives a restart mid-retry on SQLite: no event lost, none duplicated in the log", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "tessera-hooks-")), "h.sqlite")
    let up = false
    const receiver = await startReceiver(() => (up ? 200 : 500))
    try {
      const a = engineOn(file)
      const platform = await a.platform({ clientId: "p", clientSecret: "s", webhookUrl: receiver.url })
      await walletWithEvents(a, platform)
      await a.run(deliverAll)
      expect(receiver.received).toHaveLength(1)
      await a.dispose()
      // A new process on the same file, the receiver back up.
      up = true
      const b = engineOn(file)
      const again = await b.platform({ clientId: "p", clientSecret: "s", webhookUrl: receiver.url })
      await advance(b, 5)
      for (let i = 0; i < 5; i++) await b.run(deliverAll)
      const ids = receiver.received.filter((r) => r.answered === 200).map((r) => r.event.id)
      expect(ids).toHaveLength(3)
      expect(new Set(ids).size).toBe(3)
      const log: any = await b.run(listEvents(again, {}))
      expect(log.data).toHaveLength(3)
      expect(log.data.map((e: any) => e.delivery.attempts.length)).toEqual([2, 1, 1])
      await b.dispose()
    } finally {
      await receiver.close()
    }
  })

  it("a 409 from the receiver ends retries for that event", async () => {
    const receiver = await startReceiver(() => 409)
    const engine = engineOn("memory")
    try {
      const platform = await engine.platform({ clientId: "p", clientSecret: "s", webhookUrl: receiver.url })
      await walletWithEvents(engine, platform)
      for (let i = 0; i < 5; i++) {
        await engine.run(deliverAll)
        await advance(engine, 60)
      }
      expect(receiver.received).toHaveLength(3)
      const log: any = await engine.run(listEvents(platform, {}))
      expect(log.data.every((e: any) => e.delivery.abandonedAt !== undefined)).toBe(true)
    } finally {
      await engine.dispose()
      await receiver.close()
    }
  })

  it("the test webhook: 200 with the receiver's answer; 400 WEBHOOK_ENDPOINT_NOT_SET / WEBHOOK_DELIVERY_ERROR", async () => {
    const receiver = await startReceiver(() => 202)
    const engine = engineOn("memory")
    try {
      const platform = await engine.platform({ clientId: "p", clientSecret: "s", webhookUrl: receiver.url })
      const r: any = await engine.run(sendTestWebhook(platform))
      expect(r).toMatchObject({ url: receiver.url, response_status: 202 })
      expect(receiver.received[0]!.event).toMatchObject({ type: "TEST", data: {} })
      const none = await engine.platform({ clientId: "q", clientSecret: "s" })
      await expect(engine.run(sendTestWebhook(none))).rejects.toMatchObject({ _tag: "WEBHOOK_ENDPOINT_NOT_SET", status: 400 })
      const dead = await engine.platform({ clientId: "r", clientSecret: "s", webhookUrl: "http://127.0.0.1:9/hooks" })
      await expect(engine.run(sendTestWebhook(dead))).rejects.toMatchObject({ _tag: "WEBHOOK_DELIVERY_ERROR", status: 400 })
    } finally {
      await engine.dispose()
      await receiver.close()
    }
  })
})
