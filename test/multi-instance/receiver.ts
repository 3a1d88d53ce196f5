import { startReceiver } from "../webhooks/receiver.ts"

/**
 * A local webhook receiver counting deliveries per event id. `settled` waits until every one of
 * `ids` arrived and then a quiet period passed (an instance delivering a second copy late would
 * still be seen), or the deadline.
 */
export const countingReceiver = async () => {
  const r = await startReceiver()
  const counts = () => {
    const m = new Map<string, number>()
    for (const x of r.received) m.set(x.event.id, (m.get(x.event.id) ?? 0) + 1)
    return m
  }
  const settled = async (ids: ReadonlyArray<string>, quietMs = 1500, deadlineMs = 30_000) => {
    const deadline = Date.now() + deadlineMs
    let seen = -1
    let quietSince = Date.now()
    for (;;) {
      const got = counts()
      if (r.received.length !== seen) {
        seen = r.received.length
        quietSince = Date.now()
      }
      const all = ids.every((id) => got.has(id))
      if ((all && Date.now() - quietSince >= quietMs) || Date.now() > deadline) return got
      await new Promise((res) => setTimeout(res, 100))
    }
  }
  return { url: r.url, received: r.received, counts, settled, close: r.close }
}
