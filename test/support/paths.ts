import { existsSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

/** `shared/` sits beside the clone (DEVELOPERS.md); CI lays it out the same way. */
export const sharedDir = (() => {
  const candidates = [process.env["TESSERA_SHARED"], resolve(repoRoot, "../shared"), resolve(repoRoot, "shared")]
  for (const c of candidates) if (c !== undefined && existsSync(resolve(c, "reference/openapi.yaml"))) return c
  throw new Error("shared/ not found beside the repository (set TESSERA_SHARED)")
})()
