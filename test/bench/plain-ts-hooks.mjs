// Module hooks for plain-ts.mjs: a `.ts` file is transformed by esbuild (TypeScript removed, no
// name-keeping helpers, an inline source map for stack traces) and loaded as an ES module. The
// options tsc's output depends on are the repository's (tsconfig.base.json): imports kept as
// written (verbatimModuleSyntax), class fields defined (ES2022).
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { transform } from "esbuild"

export const load = async (url, context, nextLoad) => {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context)
  const path = fileURLToPath(url)
  const { code } = await transform(await readFile(path, "utf8"), {
    loader: "ts",
    format: "esm",
    target: "node20",
    sourcemap: "inline",
    sourcefile: path,
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } }
  })
  return { format: "module", source: code, shortCircuit: true }
}
