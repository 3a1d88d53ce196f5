import { readFileSync } from "node:fs"

/**
 * The version in the package's package.json, read at run time: this module runs from src/ and,
 * bundled, from dist/; both sit one level under the package root, and a JSON import would need
 * an import attribute that Node 20 and the bundler treat differently.
 */
export const packageVersion = (): string => {
  const pkg: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
  const version = typeof pkg === "object" && pkg !== null && "version" in pkg ? pkg.version : undefined
  if (typeof version !== "string") throw new Error("package.json has no version")
  return version
}
