import { afterAll, beforeAll, expect, it } from "vitest"
import { startTestServer, type TestServer } from "../support/server.ts"

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
