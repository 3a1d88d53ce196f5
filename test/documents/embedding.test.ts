import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Engine, makeEngine, type MultipartBody, type PlatformRecord, Store, StoreError } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { tinyJpeg, tinyPdf, tinyPng } from "../support/sample-files.ts"

/** A memory store whose writes to one collection fail while `failing` names it. */
let failing: string | undefined
const flakyStore = Layer.sync(Store, () => {
  const s = MemoryStore.make().service
  const refuse = (name: string) => Effect.fail(new StoreError({ message: `${name} refused`, retryable: false }))
  return {
    ...s,
    put: (c, scope, value) => (c.name === failing ? refuse(c.name) : s.put(c, scope, value)),
    remove: (c, scope, id) => (c.name === failing ? refuse(c.name) : s.remove(c, scope, id))
  } as typeof s
})

const form = (file: Uint8Array, name: string, fields: Record<string, string>): MultipartBody => ({
  fields,
  files: { file: { fileName: name, contentType: "", bytes: file } }
})

describe("documents through the embedding API (engine.as)", () => {
  let engine: Engine
  let platform: PlatformRecord
  let holder: string
  beforeAll(async () => {
    engine = makeEngine({ store: flakyStore })
    platform = await engine.platform({ clientId: "embedder", clientSecret: "s" })
    holder = ((await engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Embedded" })) as { id: string }).id
  })
  afterAll(async () => engine.dispose())

  it("uploads, reads, replaces and deletes with a MultipartBody the caller builds", async () => {
    const api = engine.as(platform).documents
    const doc = await api.upload(form(tinyPng(), "a.png", { documentType: "PASSPORT", country: "US", documentHolder: holder }))
    expect(doc).toMatchObject({ documentHolder: holder, documentType: "PASSPORT", fileName: "a.png" })
    expect(await api.get(doc.id)).toEqual(doc)
    expect((await api.list({ documentHolder: holder })).data).toEqual([doc])
    const replaced = await api.replace(doc.id, form(tinyPdf(), "b.pdf", { documentType: "BANK_STATEMENT", country: "FR" }))
    expect(replaced).toMatchObject({ id: doc.id, fileName: "b.pdf", country: "FR" })
    expect(await api.delete(doc.id)).toBeUndefined()
    await expect(api.get(doc.id)).rejects.toMatchObject({ _tag: "REFERENCE_NOT_FOUND" })
  })

  it("refuses a body that is not fields and files with a 400 on body", async () => {
    const api = engine.as(platform).documents
    const json = { documentType: "PASSPORT", country: "US", documentHolder: holder } as unknown as MultipartBody
    await expect(api.upload(json)).rejects.toMatchObject({ _tag: "INVALID_INPUT", details: { errors: [{ field: "body" }] } })
    const notBytes = { fields: {}, files: { file: { fileName: "a.png", contentType: "", bytes: [1, 2] } } } as unknown as MultipartBody
    await expect(api.upload(notBytes)).rejects.toMatchObject({ _tag: "INVALID_INPUT", details: { errors: [{ field: "body" }] } })
  })

  it("writes the record and its bytes together: a failed write of either leaves both as they were", async () => {
    const api = engine.as(platform).documents
    const count = async () => (await api.list({})).totalCount
    const before = await count()
    failing = "documentFiles"
    await expect(api.upload(form(tinyJpeg(), "c.jpg", { documentType: "SELFIE", country: "US", documentHolder: holder }))).rejects.toMatchObject({ _tag: "StoreError" })
    failing = undefined
    expect(await count()).toBe(before)

    const doc = await api.upload(form(tinyJpeg(), "c.jpg", { documentType: "SELFIE", country: "US", documentHolder: holder }))
    failing = "documentFiles"
    await expect(api.replace(doc.id, form(tinyPng(), "d.png", { documentType: "OTHER", country: "US" }))).rejects.toMatchObject({ _tag: "StoreError" })
    await expect(api.delete(doc.id)).rejects.toMatchObject({ _tag: "StoreError" })
    failing = undefined
    expect(await api.get(doc.id)).toEqual(doc)
    const state = (await engine.as(platform).sandbox.exportState()) as unknown as { collections: Record<string, Array<{ id: string; base64?: string }>> }
    expect(state.collections["documentFiles"]!.find((f) => f.id === doc.id)?.base64).toBe(Buffer.from(tinyJpeg()).toString("base64"))
  })
})
