import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { documentForm, uploadDocument } from "../support/onboarding-uploads.ts"
import { samples, tinyPdf } from "../support/sample-files.ts"
import { startTestServer } from "../support/server.ts"
import { newCustomer, sha256, stored, V } from "./support.ts"

const dir = mkdtempSync(join(tmpdir(), "tessera-documents-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("documents are durable state", () => {
  it("uploads, replaces and deletes, restarts on the same file, and reads back the same metadata and bytes", async () => {
    const filename = join(dir, "docs.sqlite")
    const first = await startTestServer("sqlite", { filename })
    const holder = await newCustomer(first)
    const kept = await uploadDocument(first, holder, "PASSPORT", "jpeg", { side: "FRONT", documentNumber: "P-1" }, 3)
    const replaced = await uploadDocument(first, holder, "PROOF_OF_ADDRESS", "png")
    expect((await first.request("PUT", `${V}/documents/${replaced.id}`, { form: documentForm(undefined, "BANK_STATEMENT", "pdf", {}, 9) })).status).toBe(200)
    const deleted = await uploadDocument(first, holder, "SELFIE", "png", {}, 5)
    expect((await first.request("DELETE", `${V}/documents/${deleted.id}`)).status).toBe(204)
    const listed = (await first.request("GET", `${V}/documents?documentHolder=${encodeURIComponent(holder)}`)).body
    await first.close()

    const second = await startTestServer("sqlite", { filename })
    try {
      expect((await second.request("GET", `${V}/documents?documentHolder=${encodeURIComponent(holder)}`)).body).toEqual(listed)
      expect(listed.totalCount).toBe(2)
      expect((await second.request("GET", `${V}/documents/${kept.id}`)).body).toEqual(kept)
      const keptFile = await stored(second, kept.id)
      expect(sha256(keptFile.bytes!)).toBe(sha256(samples.jpeg.bytes(3)))
      expect(keptFile.record?.fileSha256).toBe(sha256(samples.jpeg.bytes(3)))
      const replacedFile = await stored(second, replaced.id)
      expect(replacedFile.record).toMatchObject({ documentType: "BANK_STATEMENT", fileType: "application/pdf", fileSha256: sha256(tinyPdf(9)) })
      expect(sha256(replacedFile.bytes!)).toBe(sha256(tinyPdf(9)))
      expect(await stored(second, deleted.id)).toEqual({ record: undefined, bytes: undefined })
    } finally {
      await second.close()
    }
  })

  it("travel in a state export from SQLite, and an import into a memory server serves them with the same bytes", async () => {
    const from = await startTestServer("sqlite", { filename: join(dir, "export.sqlite") })
    const to = await startTestServer("memory")
    try {
      const holder = await newCustomer(from)
      const doc = await uploadDocument(from, holder, "UTILITY_BILL", "pdf", { issuingAuthority: "City Power" }, 11)
      const state = await from.request("GET", `${V}/sandbox/state`)
      expect((await to.request("PUT", `${V}/sandbox/state`, { body: state.body })).status).toBe(200)
      expect((await to.request("GET", `${V}/documents/${doc.id}`)).body).toEqual(doc)
      expect(sha256((await stored(to, doc.id)).bytes!)).toBe(sha256(tinyPdf(11)))
    } finally {
      await from.close()
      await to.close()
    }
  })
})
