// The CLI bundle changes how three things of Effect's are loaded (scripts/bundle-cli.mjs, DECISIONS
// #461, #463, #496): schema classes build their schemas at first use, schemas are plain functions
// rather than classes, and the workspace's imports of `effect` name Effect's modules, not its
// index. None may change what a schema or a class does.
import { mkdtempSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { bundleCli, withLazyClassSchemas, withoutFastCheck, withPerModuleEffectImports } from "../../scripts/bundle-cli.mjs"
import { bundleProbe } from "./bundle-probe.ts"
import { probe } from "./fixtures/error-probe.ts"
import { probe as schemaProbe } from "./fixtures/schema-probe.ts"

describe("Effect in the CLI bundle", () => {
  it("error classes built lazily behave as Effect's own: instanceof, _tag, status, validation, encode, decode, extend", async () => {
    const outfile = await bundleProbe("error-probe.ts", [withoutFastCheck, withLazyClassSchemas, withPerModuleEffectImports])
    const bundled = (createRequire(import.meta.url)(outfile) as { probe: typeof probe }).probe()
    const published = probe()
    expect(published.instanceOf).toEqual([true, true, false, true])
    expect(published.validated[0]).not.toBe("accepted")
    expect(bundled).toEqual(published)
  }, 60_000)

  it("schemas made as plain functions behave as Effect's classes: every kind decodes, encodes, annotates, pipes and reads the same", async () => {
    const outfile = await bundleProbe("schema-probe.ts", [withoutFastCheck, withLazyClassSchemas, withPerModuleEffectImports])
    const bundled = (createRequire(import.meta.url)(outfile) as { probe: typeof schemaProbe }).probe()
    const published = schemaProbe()
    // The probe sees something: the kinds accept the good input and refuse the bad one.
    expect(published.kinds.struct.decodedGood).toEqual({ name: "n", age: 7 })
    expect(published.kinds.refined.decodedBad).not.toBe("accepted")
    expect(published.kinds.literal.methodsEnumerable).toEqual([])
    expect(bundled).toEqual(published)
    // And the bundle's Effect is the patched one.
    expect(readFileSync(outfile, "utf8")).toContain("Object.setPrototypeOf(SchemaClass, SchemaBase)")
  }, 60_000)

  it("the CLI bundle reads Effect per module, without its index (which imports every module)", async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), "tessera-bundle-")), "tessera.cjs")
    const { metafile } = await bundleCli({ outfile, sqlite: "package" })
    const effect = Object.keys(metafile.inputs).filter((f) => f.includes("/effect/dist/esm/"))
    expect(effect.length).toBeGreaterThan(50)
    expect(effect.filter((f) => f.endsWith("/effect/dist/esm/index.js"))).toEqual([])
  }, 60_000)
})
