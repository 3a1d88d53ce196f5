import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Effect, Option } from "effect"
import { collection } from "@tessera/core"
import { makeSqliteStore, openDatabase } from "@tessera/adapter-sqlite"

const Blobs = collection<{ readonly id: string; readonly text: string }>()("cacheBlobs", (b) => b.id)

describe("SQLite read cache", () => {
  it("keeps small records parsed once, but never holds a large one (a document's file) in memory", async () => {
    const store = makeSqliteStore(openDatabase({ filename: join(mkdtempSync(join(tmpdir(), "tessera-cache-")), "c.sqlite") }))
    const read = (id: string) => Effect.runSync(store.get(Blobs, "p1", id).pipe(Effect.map(Option.getOrThrow)))
    Effect.runSync(store.put(Blobs, "p1", { id: "small", text: "x".repeat(100) }))
    Effect.runSync(store.put(Blobs, "p1", { id: "large", text: "x".repeat(2 * 1024 * 1024) }))
    // A cached record comes back as the same object; a record read from the file is parsed anew.
    expect(read("small")).toBe(read("small"))
    const first = read("large")
    expect(first.text.length).toBe(2 * 1024 * 1024)
    expect(read("large")).not.toBe(first)
    expect(read("large")).toEqual(first)
  })
})
