import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { DueSteps, Engine, SANDBOX_LONG_PAYMENT_MS, SANDBOX_PENDING_FAIL_MS, SERVER_SCOPE, Store, quoteOutcome, transferOutcome } from "@tessera/core"
import { advanceClock, runDueSteps } from "@tessera/core/operations"
import { everyStore } from "../support/stores.ts"
import { readTransaction, start, webhookTypes } from "./support.ts"

const advance = (engine: Engine, ms: number) => engine.run(advanceClock({ seconds: ms / 1000 }))
const dueCount = (engine: Engine) => engine.run(Effect.flatMap(Store, (s) => s.list(DueSteps, SERVER_SCOPE, { limit: 1 })).pipe(Effect.map((p) => p.totalCount)))

describe.each(everyStore("due"))("due outcome steps on a virtual clock (%s)", (_, layer) => {
  const setup = async () => {
    const engine = await Engine.make({ store: layer(), clock: "virtual", clockStartMs: Date.parse("2026-01-01T00:00:00Z") })
    const platform = await engine.platform({ clientId: "due", clientSecret: "due-secret-0123456789" })
    return { engine, platform }
  }

  it("a 005 transfer stays PENDING until 30 s of engine time passed, then fails once, in order", async () => {
    const { engine, platform } = await setup()
    const { first, latest } = await start(engine, platform, transferOutcome("OUTGOING", "005"))
    expect(first.status).toBe("PENDING")
    expect(latest.status).toBe("PENDING")
    await advance(engine, SANDBOX_PENDING_FAIL_MS - 1000)
    expect((await readTransaction(engine, platform, first.id)).status).toBe("PENDING")
    await advance(engine, 1000)
    expect(await readTransaction(engine, platform, first.id)).toMatchObject({ status: "FAILED", failureReason: "PAYOUT_RETURNED" })
    expect(await webhookTypes(engine, platform, first.id)).toEqual(["OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.FAILED"])
    // Consumed: nothing is left due, and a further pass applies nothing.
    expect(await dueCount(engine)).toBe(0)
    expect(await engine.run(runDueSteps)).toBe(0)
    await engine.dispose()
  })

  it("one advance past several due times applies each transaction's steps in order, each once", async () => {
    const { engine, platform } = await setup()
    const slow = (await start(engine, platform, quoteOutcome("003"))).first
    const returned = (await start(engine, platform, quoteOutcome("005"))).first
    const failing = (await start(engine, platform, transferOutcome("OUTGOING", "005"))).first
    expect((await readTransaction(engine, platform, slow.id)).status).toBe("PROCESSING")
    expect((await readTransaction(engine, platform, returned.id)).status).toBe("COMPLETED")
    await advance(engine, SANDBOX_LONG_PAYMENT_MS)
    expect((await readTransaction(engine, platform, slow.id)).status).toBe("COMPLETED")
    expect(await readTransaction(engine, platform, returned.id)).toMatchObject({ status: "FAILED", refund: { status: "COMPLETED" } })
    expect((await readTransaction(engine, platform, failing.id)).status).toBe("FAILED")
    expect(await webhookTypes(engine, platform, returned.id)).toEqual([
      "OUTGOING_PAYMENT.PENDING",
      "OUTGOING_PAYMENT.PROCESSING",
      "OUTGOING_PAYMENT.COMPLETED",
      "OUTGOING_PAYMENT.FAILED",
      "OUTGOING_PAYMENT.REFUND_PENDING",
      "OUTGOING_PAYMENT.REFUND_COMPLETED"
    ])
    expect(await webhookTypes(engine, platform, slow.id)).toEqual(["OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"])
    expect(await dueCount(engine)).toBe(0)
    await engine.dispose()
  })

  it("a platform's reset removes its pending steps", async () => {
    const { engine, platform } = await setup()
    await start(engine, platform, transferOutcome("OUTGOING", "005"))
    expect(await dueCount(engine)).toBe(1)
    await engine.as(platform).sandbox.reset()
    expect(await dueCount(engine)).toBe(0)
    await engine.dispose()
  })
})
