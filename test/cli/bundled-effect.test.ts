// The CLI bundle changes how two things of Effect's are loaded (scripts/bundle-cli.mjs, DECISIONS
// #461, #463): schema classes build their schemas at first use, and the workspace's imports of
// `effect` name Effect's modules, not its index. Neither may change what a class does.
import { mkdtempSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { bundleCli, withLazyClassSchemas, withoutFastCheck, withPerModuleEffectImports } from "../../scripts/bundle-cli.mjs"
import { bundleProbe } from "./bundle-probe.ts"
import { probe } from "./fixtures/error-probe.ts"

describe("Effect in the CLI bundle", () => {
  it("error classes built lazily behave as Effect's own: instanceof, _tag, status, validation, encode, decode, extend", async () => {
    const outfile = await bundleProbe("error-probe.ts", [withoutFastCheck, withLazyClassSchemas, withPerModuleEffectImports])
    const bundled = (createRequire(import.meta.url)(outfile) as { probe: typeof probe }).probe()
    const published = probe()
    expect(published.instanceOf).toEqual([true, true, false, true])
    expect(published.validated[0]).not.toBe("accepted")
    expect(bundled).toEqual(published)
  }, 60_000)

  it("the CLI bundle reads Effect per module, without its index (which imports every module)", async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), "tessera-bundle-")), "tessera.cjs")
    const { metafile } = await bundleCli({ outfile, sqlite: "package" })
    const effect = Object.keys(metafile.inputs).filter((f) => f.includes("/effect/dist/esm/"))
    expect(effect.length).toBeGreaterThan(50)
    expect(effect.filter((f) => f.endsWith("/effect/dist/esm/index.js"))).toEqual([])
  }, 60_000)
})
