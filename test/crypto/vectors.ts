import { readFileSync } from "node:fs"

/**
 * The known-answer vectors, by group (`vectors.json` beside this file, written by
 * `scripts/extract-vectors.mjs`; each entry names its public source).
 */
const { generatedBy: _, ...groups } = JSON.parse(readFileSync(new URL("./vectors.json", import.meta.url), "utf8")) as Record<string, unknown>
export const vectors = groups as Record<string, Array<Record<string, any>>>
