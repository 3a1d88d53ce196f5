// Waiting on the event loop without a clock: tests of interleavings (group commit, shutdown)
// advance by turns, so they neither sleep nor depend on the machine's speed.
import { expect } from "vitest"

/** Waits (event-loop turns, no clock) until `cond` holds; fails the test when it never does. */
export const until = async (cond: () => boolean) => {
  for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setImmediate(r))
  expect(cond()).toBe(true)
}

/** A promise with a flag saying whether it has settled yet. */
export const tracked = <A>(p: Promise<A>) => {
  const t = { settled: false, value: p }
  p.then(
    () => (t.settled = true),
    () => (t.settled = true)
  )
  return t
}
