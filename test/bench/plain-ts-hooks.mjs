// Module hooks for plain-ts.mjs: a `.ts` file is transformed by esbuild (TypeScript removed, no
// name-keeping helpers, an inline source map for stack traces) and loaded as an ES module. The
// compiler options are the repository's own (tsconfig.base.json), so the output depends on them
// as tsc's does: imports kept as written (verbatimModuleSyntax), class fields defined (ES2022).
import { readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { transform } from "esbuild"

const tsconfigRaw = readFileSync(new URL("../../tsconfig.base.json", import.meta.url), "utf8")

export const load = async (url, context, nextLoad) => {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context)
  const path = fileURLToPath(url)
  const { code } = await transform(await readFile(path, "utf8"), {
    loader: "ts",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    sourcefile: path,
    tsconfigRaw
  })
  return { format: "module", source: code, shortCircuit: true }
}
