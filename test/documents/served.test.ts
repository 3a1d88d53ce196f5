import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { type RequestLogEntry, serve } from "@tessera/adapter-http"
import { documentForm } from "../support/onboarding-uploads.ts"
import { encodeMultipart, multipartContentType } from "../support/multipart.ts"
import { tinyGif } from "../support/sample-files.ts"
import { basic, CLIENT_ID, CLIENT_SECRET, startTestServer, type TestServer } from "../support/server.ts"

/** What the server says about documents besides their answers: its OpenAPI document and its request log. */
describe("the served document", () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer("memory")
  })
  afterAll(async () => t.close())

  it("the served document declares multipart/form-data request bodies for upload and replace, with the reference's schemas", async () => {
    const doc = await (await fetch(`${t.origin}/openapi.json`)).json()
    const upload = doc.paths["/documents"].post
    const replace = doc.paths["/documents/{documentId}"].put
    expect(upload.requestBody).toEqual({ required: true, content: { "multipart/form-data": { schema: { $ref: "#/components/schemas/DocumentUploadRequest" } } } })
    expect(replace.requestBody).toEqual({ required: true, content: { "multipart/form-data": { schema: { $ref: "#/components/schemas/DocumentReplaceRequest" } } } })
    expect(doc.components.schemas.BaseDocumentRequest.properties.file).toEqual({ type: "string", format: "binary" })
    for (const op of [upload, replace]) {
      expect(op.responses["415"].description).toBe("The body is not multipart/form-data")
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["400", "404", "413", "415"]))
    }
    expect(doc.paths["/documents/{documentId}"].delete.responses["409"]).toBeDefined()
    // A JSON endpoint still says JSON.
    expect(Object.keys(doc.paths["/customers"].post.requestBody.content)).toEqual(["application/json"])
    expect(doc.paths["/customers"].post.responses["415"].description).toBe("The body is not JSON")
  })
})

it("the request log of an upload names the route and the outcome, never the file's name, type, bytes or fields", async () => {
  const engine = makeEngine({ store: MemoryStore.layer })
  await engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
  const entries: Array<RequestLogEntry> = []
  const server = await serve({ engine, port: 0, log: (e) => entries.push(e) })
  try {
    const post = (body: FormData | Uint8Array, contentType?: string) =>
      fetch(`${server.url}/documents`, {
        method: "POST",
        headers: { authorization: basic(), ...(contentType === undefined ? {} : { "content-type": contentType }) },
        body: body as BodyInit
      })
    const customer = await fetch(`${server.url}/customers`, {
      method: "POST",
      headers: { authorization: basic(), "content-type": "application/json" },
      body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Logged Holder" })
    }).then((r) => r.json() as Promise<{ id: string }>)
    const form = documentForm(customer.id, "PASSPORT", "png", { documentNumber: "SECRET-NUMBER-42" })
    form.set("file", new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x51])], { type: "image/png" }), "very-private-name.png")
    expect((await post(form)).status).toBe(201)
    const gif = encodeMultipart([{ name: "file", value: tinyGif(), fileName: "another-private.gif" }])
    expect((await post(gif, multipartContentType())).status).toBe(400)
    const logged = JSON.stringify(entries)
    expect(entries.filter((e) => e.route === "/documents").map((e) => [e.method, e.status, e.code])).toEqual([
      ["POST", 201, undefined],
      ["POST", 400, "INVALID_INPUT"]
    ])
    for (const secret of ["very-private-name", "another-private", "SECRET-NUMBER-42", "image/png", "PASSPORT", Buffer.from(tinyGif()).toString("base64")])
      expect(logged).not.toContain(secret)
  } finally {
    await server.close()
    await engine.dispose()
  }
})
