// In the CLI bundle the adapters' and the CLI's imports of `@tessera/core` name the modules that
// declare what they import (scripts/direct-core-imports.mjs, DECISIONS #504), so a start no longer
// evaluates everything the core's index re-exports. Each name must reach the very binding the
// index exports, and the rewrite must refuse what it cannot read rather than guess.
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import * as core from "@tessera/core"
import { declaredExports, directCoreImports } from "../../scripts/direct-core-imports.mjs"
import { repoRoot } from "../support/paths.ts"

const index = join(repoRoot, "packages", "core", "src", "index.ts")
const file = (relative: string) => join(repoRoot, "packages", "core", "src", relative)

describe("the core's index, read for the CLI bundle", () => {
  it("names, for every value the index exports, a module that exports that same value", async () => {
    const declared = declaredExports(index)
    const values = Object.keys(core)
    expect(values.length).toBeGreaterThan(300)
    for (const name of values) {
      const at = declared.get(name)
      expect(at, name).toBeDefined()
      const module = (await import(pathToFileURL(at!.file).href)) as Record<string, unknown>
      expect(module[at!.name], name).toBe((core as Record<string, unknown>)[name])
    }
    // Re-exports are followed to the declaring module, not to the index that passes them on.
    expect(declared.get("endpoints")!.file).toBe(file("endpoints/table.ts"))
    expect(declared.get("StateDocument")!.file).toBe(file("domain/sandbox/state-document.ts"))
  }, 60_000)
})

describe("declaredExports, on modules made for the case", () => {
  const modules = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), "tessera-barrel-"))
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
    return (name: string) => join(dir, name)
  }

  it("reads a module reached twice, through `export *` and by name, in full both times", () => {
    const at = modules({
      "index.ts": 'export * from "./a.ts"\nexport { helper } from "./h.ts"\n',
      "a.ts": 'export * from "./h.ts"\nexport const a = 1\n',
      "h.ts": "export const helper = 1\nexport const other = 2\n"
    })
    const declared = declaredExports(at("index.ts"))
    expect(declared.get("helper")).toEqual({ file: at("h.ts"), name: "helper" })
    expect(declared.get("other")).toEqual({ file: at("h.ts"), name: "other" })
    expect(declared.get("a")).toEqual({ file: at("a.ts"), name: "a" })
  })

  it("lets a module's own names win over its `export *`, and leaves out a name two `export *` give differently", () => {
    const at = modules({
      "index.ts": 'export const own = 1\nexport * from "./b.ts"\nexport * from "./c.ts"\n',
      "b.ts": "export const own = 2\nexport const twice = 2\nexport const onlyB = 2\n",
      "c.ts": "export const twice = 3\n"
    })
    const declared = declaredExports(at("index.ts"))
    expect(declared.get("own")).toEqual({ file: at("index.ts"), name: "own" })
    expect(declared.get("onlyB")).toEqual({ file: at("b.ts"), name: "onlyB" })
    expect(declared.has("twice")).toBe(false)
  })
})

describe("directCoreImports", () => {
  const exportsOf = declaredExports(index)
  const where = "packages/adapter-x/src/probe.ts"

  it("splits an import by declaring module, keeps aliases, type-only names and the line count, and rewrites re-exports", () => {
    const source = [
      'import { makeEngine, type Engine, StoreError as Failure,',
      '  runDueSteps } from "@tessera/core"',
      'import type { PlatformRecord } from "@tessera/core"',
      'export { DEFAULT_MAX_BODY_BYTES } from "@tessera/core"',
      "const x = 1"
    ].join("\n")
    const out = directCoreImports(source, exportsOf, where)
    expect(out.split("\n")).toHaveLength(5)
    expect(out).toContain(`import { makeEngine } from ${JSON.stringify(file("engine.ts"))};`)
    expect(out).toContain(`import { StoreError as Failure } from ${JSON.stringify(file("ports/store.ts"))};`)
    expect(out).toContain(`import { runDueSteps } from ${JSON.stringify(file("operations/transactions/due-runner.ts"))};`)
    expect(out).toContain('import type { Engine } from "@tessera/core";')
    expect(out).toContain('import type { PlatformRecord } from "@tessera/core"')
    expect(out).toContain(`export { DEFAULT_MAX_BODY_BYTES } from ${JSON.stringify(file("limits.ts"))};`)
    expect(out.endsWith("const x = 1")).toBe(true)
  })

  it("rewrites a load at first use that destructures its names, in both forms", () => {
    const awaited = directCoreImports('const { checkStateDocument } = await import("@tessera/core")', exportsOf, where)
    expect(awaited).toBe(`const { checkStateDocument } = await import(${JSON.stringify(file("domain/sandbox/state-document.ts"))})`)
    const then = directCoreImports('import("@tessera/core").then(({ deliverAll }) => deliverAll)', exportsOf, where)
    expect(then).toBe(`import(${JSON.stringify(file("operations/webhooks/delivery.ts"))}).then(({ deliverAll }) => deliverAll)`)
  })

  it("refuses a name the index does not export, a load it cannot read, and one load of two modules", () => {
    expect(() => directCoreImports('import { nothingLikeThis } from "@tessera/core"', exportsOf, where)).toThrow(/nothingLikeThis/)
    expect(() => directCoreImports('const core = await import("@tessera/core")', exportsOf, where)).toThrow(/destructure/)
    expect(() => directCoreImports('const { makeEngine, StoreError } = await import("@tessera/core")', exportsOf, where)).toThrow(/2 modules/)
    // Forms that would load the whole index at run time.
    for (const form of ['import * as core from "@tessera/core"', 'export * from "@tessera/core"', "import { makeEngine } from '@tessera/core'", 'import {} from "@tessera/core"', 'import { makeEngine, /* } */ Engine } from "@tessera/core"'])
      expect(() => directCoreImports(form, exportsOf, where), form).toThrow(/@tessera\/core/)
  })
})
