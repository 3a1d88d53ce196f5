// Bundles a probe under test/cli/fixtures with some of the CLI bundle's plugins, as the CLI's
// bundle would carry its code, so a test can compare what it observes with the sources run as published.
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build, type Plugin } from "esbuild"
import { sideLibraries } from "../../scripts/bundle-cli.mjs"
import { repoRoot } from "../support/paths.ts"

/**
 * The path of the CommonJS bundle of `fixtures/<fixture>` made with `plugins`; with
 * `sideLibraries`, the libraries no start runs go to a file beside it, as in the CLI's bundle.
 */
export const bundleProbe = async (fixture: string, plugins: ReadonlyArray<Plugin>, options: { readonly sideLibraries?: boolean } = {}): Promise<string> => {
  const outfile = join(mkdtempSync(join(tmpdir(), "tessera-probe-")), "probe.cjs")
  const sides = options.sideLibraries === true ? sideLibraries() : undefined
  const result = await build({
    entryPoints: [join(repoRoot, "test", "cli", "fixtures", fixture)],
    absWorkingDir: repoRoot,
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile,
    write: false,
    metafile: true,
    plugins: [...plugins, ...(sides === undefined ? [] : [sides.plugin])],
    logLevel: "silent"
  })
  const text = result.outputFiles[0]!.text
  writeFileSync(outfile, sides === undefined ? text : (await sides.finish(build, text, outfile, result.metafile.inputs)).text)
  return outfile
}
