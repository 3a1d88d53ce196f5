// Reconciliation finds a held request's operation by its kind in one list
// (operations/common/signed-operations.ts, DECISIONS #503), not in a registry each module fills as
// it loads. A signed operation defined but not listed would never settle on its own.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as operations from "@tessera/core/operations"
import { signedOperation, signedOperations } from "@tessera/core/operations"
import { repoRoot } from "../support/paths.ts"

const sources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []))

describe("the signed operations reconciliation knows", () => {
  it("are every operation the core defines, each kind once", () => {
    const defined = sources(join(repoRoot, "packages", "core", "src"))
      .filter((f) => !f.endsWith(join("signed-retry", "registry.ts")))
      .flatMap((f) => readFileSync(f, "utf8").match(/\bdefineSignedOperation\(/g) ?? [])
    const kinds = signedOperations().map((op) => op.kind)
    expect(defined.length).toBeGreaterThanOrEqual(10)
    expect(kinds).toHaveLength(defined.length)
    expect(new Set(kinds).size).toBe(kinds.length)
    for (const kind of kinds) expect(signedOperation(kind)?.kind).toBe(kind)
    expect(signedOperation("noSuchKind")).toBeUndefined()
  })

  it("are public from @tessera/core/operations, each under its kind's name", () => {
    const exported = operations as unknown as Record<string, unknown>
    for (const op of signedOperations()) expect([op.kind, exported[`${op.kind}Op`]]).toEqual([op.kind, op])
  })

  it("include the ones that only a re-sent retry may answer, marked so", () => {
    expect(signedOperation("exportWallet")?.reconcilable).toBe(false)
    expect(signedOperations().filter((op) => !op.reconcilable).map((op) => op.kind)).toEqual(["exportWallet"])
  })
})
