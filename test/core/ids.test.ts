import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as fc from "fast-check"
import { decodeCursor, drawUuid, encodeCursor, Ids, idTypes, isId, makeId, parseId, seededIds, timeOrderedUuid, uuidOf } from "@tessera/core"
import { Either } from "effect"

describe("ids", () => {
  it("<Type>:<uuid> round-trips for every type (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...idTypes), fc.uuid({ version: 4 }), (type, uuid) => {
        const id = makeId(type, uuid)
        expect(isId(type, id)).toBe(true)
        expect(uuidOf(id)).toBe(uuid)
        expect(parseId(type, id)).toEqual(Option.some(id))
      })
    )
  })

  it("an id of one type is never accepted as another (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...idTypes), fc.constantFrom(...idTypes), fc.uuid({ version: 4 }), (a, b, uuid) => {
        fc.pre(a !== b)
        expect(isId(b, makeId(a, uuid))).toBe(false)
      })
    )
  })

  it("rejects arbitrary strings that are not ids (property)", () => {
    fc.assert(fc.property(fc.string(), (s) => {
      if (!s.startsWith("Customer:")) expect(isId("Customer", s)).toBe(false)
    }))
    expect(isId("Customer", "Customer:not-a-uuid")).toBe(false)
    expect(isId("Customer", 42)).toBe(false)
  })

  it.effect("a seeded source repeats byte for byte; different seeds differ", () =>
    Effect.gen(function* () {
      const draw = (seed: number) =>
        Effect.provide(Effect.flatMap(Ids, (ids) => Effect.all([ids.uuid, ids.uuid, ids.uuid])), Ids.seeded(seed))
      const a = yield* draw(7)
      expect(yield* draw(7)).toEqual(a)
      expect(yield* draw(8)).not.toEqual(a)
      for (const u of a) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    })
  )

  it.effect("the default source makes RFC 9562 version-7 uuids: the millisecond they were made, then random bits", () =>
    Effect.gen(function* () {
      const before = Date.now()
      const made = yield* Effect.provide(Effect.flatMap(Ids, (ids) => Effect.all(Array.from({ length: 200 }, () => ids.uuid))), Ids.random)
      const after = Date.now()
      for (const u of made) {
        expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        const ms = parseInt(u.slice(0, 8) + u.slice(9, 13), 16)
        expect(ms).toBeGreaterThanOrEqual(before)
        expect(ms).toBeLessThanOrEqual(after)
      }
      expect(new Set(made).size).toBe(made.length)
      // Made in a later millisecond, an id sorts after: what keeps a store's keys in order.
      expect(timeOrderedUuid(before + 1) > timeOrderedUuid(before)).toBe(true)
      expect(timeOrderedUuid(0x019542f5b3e7).startsWith("019542f5-b3e7-7")).toBe(true)
    })
  )

  it("version-7 uuids past many refills of the random pool: all distinct, every random digit varies, the variant's two bits too", () => {
    // 3,000 uuids draw 30,000 pooled bytes: seven refills of the 4 KiB pool.
    const made = Array.from({ length: 3_000 }, () => timeOrderedUuid(0x019542f5b3e7))
    expect(new Set(made).size).toBe(made.length)
    for (const u of made) expect(u).toMatch(/^019542f5-b3e7-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const random = [15, 16, 17, 20, 21, 22, ...Array.from({ length: 12 }, (_, k) => 24 + k)]
    for (const at of random) expect(new Set(made.map((u) => u[at])).size).toBe(16)
    expect(new Set(made.map((u) => u[19]))).toEqual(new Set(["8", "9", "a", "b"]))
  })

  it("unsafeUuid draws from the same sequence as uuid, and drawUuid runs uuid for a service without it", () => {
    const a = seededIds(7)
    const b = seededIds(7)
    const { unsafeUuid: _, ...older } = seededIds(7)
    const mixed = [Effect.runSync(a.uuid), drawUuid(a), Effect.runSync(a.uuid), drawUuid(a)]
    expect(mixed).toEqual([drawUuid(b), drawUuid(b), Effect.runSync(b.uuid), drawUuid(b)])
    expect([drawUuid(older), drawUuid(older), drawUuid(older), drawUuid(older)]).toEqual(mixed)
    expect(new Set(mixed).size).toBe(4)
  })

  it("cursors round-trip and garbage is refused (property)", () => {
    fc.assert(fc.property(fc.nat(), (seq) => {
      expect(decodeCursor(encodeCursor(seq))).toEqual(Either.right(seq))
    }))
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = decodeCursor(s)
        if (Either.isRight(r)) expect(encodeCursor(r.right!)).toBe(s)
      })
    )
  })
})
