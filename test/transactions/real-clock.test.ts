import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startDueRunner, type DueRunner } from "@tessera/adapter-http"
import { SANDBOX_PENDING_FAIL_MS } from "@tessera/core"
import { startTestServer, type TestServer } from "../support/server.ts"
import { fund, getTransaction, paymentWebhooks, platformExternal, platformUsdAccount, V } from "./http-support.ts"

/**
 * On the real clock nothing is advanced: the server's timer applies the 005 outcome when its
 * time comes. This test waits the real 30 seconds (one store is enough: the stores are covered
 * on the virtual clock).
 */
describe("a 005 transfer on the real clock", () => {
  let t: TestServer
  let runner: DueRunner
  beforeAll(async () => {
    t = await startTestServer("memory", { clock: "real" })
    runner = startDueRunner(t.engine)
  })
  afterAll(async () => {
    await runner.stop()
    await t.close()
  })

  it("is PENDING at once and FAILED about 30 s later, applied by the server's timer", async () => {
    const internal = await platformUsdAccount(t)
    await fund(t, internal, 10_000)
    const external = await platformExternal(t, "005")
    const started = Date.now()
    const r = await t.request("POST", `${V}/transfer-out`, { body: { source: { accountId: internal }, destination: { accountId: external.id }, amount: 2_500 } })
    expect(r.body.status).toBe("PENDING")
    expect((await getTransaction(t, r.body.id)).status).toBe("PENDING")
    // Watch the webhooks only: they do not apply due steps, so what appears there is the timer's work.
    let types: Array<string> = []
    while (Date.now() - started < SANDBOX_PENDING_FAIL_MS + 10_000) {
      types = (await paymentWebhooks(t, r.body.id)).map((h) => h.type)
      if (types.includes("OUTGOING_PAYMENT.FAILED")) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(SANDBOX_PENDING_FAIL_MS - 1_000)
    expect(types).toEqual(["OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.FAILED"])
    const failed = await getTransaction(t, r.body.id)
    expect(failed).toMatchObject({ status: "FAILED", failureReason: "PAYOUT_RETURNED" })
    expect(Date.parse(failed.updatedAt) - Date.parse(failed.createdAt)).toBe(SANDBOX_PENDING_FAIL_MS)
  }, 60_000)
})
