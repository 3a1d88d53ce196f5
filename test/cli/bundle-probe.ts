// Bundles a probe under test/cli/fixtures with some of the CLI bundle's plugins, as the CLI's
// bundle would carry its code, so a test can compare what it observes with the sources run as published.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build, type Plugin } from "esbuild"
import { repoRoot } from "../support/paths.ts"

/** The path of the CommonJS bundle of `fixtures/<fixture>` made with `plugins`. */
export const bundleProbe = async (fixture: string, plugins: ReadonlyArray<Plugin>): Promise<string> => {
  const outfile = join(mkdtempSync(join(tmpdir(), "tessera-probe-")), "probe.cjs")
  await build({
    entryPoints: [join(repoRoot, "test", "cli", "fixtures", fixture)],
    absWorkingDir: repoRoot,
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile,
    plugins: [...plugins],
    logLevel: "silent"
  })
  return outfile
}
