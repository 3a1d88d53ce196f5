import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { delegatedKeyMachine, type DelegatedKeyState, maySign } from "../../packages/core/src/machines/delegated-key.ts"
import { delegatedKeyStatuses } from "../../packages/core/src/domain/delegated-keys/delegated-key.ts"

const T0 = Date.UTC(2026, 0, 1)
const rank = { PENDING: 0, ACTIVE: 1, REVOKED: 2 } as const

/** One funding source's keys, driven as the operations drive them: activation is told of the ACTIVE key. */
type Op = { readonly _tag: "Create" } | { readonly _tag: "Activate"; readonly key: number } | { readonly _tag: "Revoke"; readonly key: number }
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ _tag: "Create" as const }),
  fc.nat(5).map((key) => ({ _tag: "Activate" as const, key })),
  fc.nat(5).map((key) => ({ _tag: "Revoke" as const, key }))
)

const run = (ops: ReadonlyArray<Op>, check: (before: ReadonlyArray<DelegatedKeyState>, after: ReadonlyArray<DelegatedKeyState>, op: Op, ok: boolean) => void) => {
  let keys: Array<DelegatedKeyState> = []
  for (const o of ops) {
    const before = keys
    let ok = true
    if (o._tag === "Create") keys = [...keys, { status: "PENDING" }]
    else if (o.key < keys.length) {
      const active = keys.findIndex((k) => k.status === "ACTIVE")
      const event = o._tag === "Revoke" ? { _tag: "Revoke" as const } : active >= 0 ? { _tag: "Activate" as const, activeKeyId: `k${active}` } : { _tag: "Activate" as const }
      const result = delegatedKeyMachine(keys[o.key]!, event, T0)
      ok = Either.isRight(result)
      if (Either.isRight(result)) keys = keys.map((k, i) => (i === o.key ? result.right.state : k))
    } else continue
    check(before, keys, o, ok)
  }
  return keys
}

describe("delegated-key machine", () => {
  it("a funding source never has two ACTIVE keys, whatever the order of creations, activations and revocations", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        run(ops, (_b, after) => expect(after.filter((k) => k.status === "ACTIVE").length).toBeLessThanOrEqual(1))
      })
    )
  })

  it("statuses only move forward (PENDING → ACTIVE → REVOKED) and a refusal changes nothing", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        run(ops, (before, after, _o, ok) => {
          if (!ok) expect(after).toEqual(before)
          before.forEach((k, i) => expect(rank[after[i]!.status]).toBeGreaterThanOrEqual(rank[k.status]))
        })
      })
    )
  })

  it("activation succeeds exactly for a PENDING key with no ACTIVE sibling; revocation exactly for an ACTIVE key", () => {
    fc.assert(
      fc.property(fc.constantFrom(...delegatedKeyStatuses), fc.boolean(), (status, sibling) => {
        const activate = delegatedKeyMachine({ status }, sibling ? { _tag: "Activate", activeKeyId: "DelegatedKey:x" } : { _tag: "Activate" }, T0)
        expect(Either.isRight(activate)).toBe(status === "PENDING" && !sibling)
        if (Either.isLeft(activate)) expect(activate.left.status).toBe(409)
        const revoke = delegatedKeyMachine({ status }, { _tag: "Revoke" }, T0)
        expect(Either.isRight(revoke)).toBe(status === "ACTIVE")
        if (Either.isLeft(revoke)) expect([revoke.left.status, revoke.left._tag]).toEqual([400, "INVALID_INPUT"])
      })
    )
  })

  it("only an ACTIVE key may sign", () => {
    expect(delegatedKeyStatuses.filter(maySign)).toEqual(["ACTIVE"])
  })
})
