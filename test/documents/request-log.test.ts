import { expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { type RequestLogEntry, serve } from "@tessera/adapter-http"
import { documentForm } from "../support/onboarding-uploads.ts"
import { encodeMultipart, multipartContentType } from "../support/multipart.ts"
import { tinyGif } from "../support/sample-files.ts"
import { basic, CLIENT_ID, CLIENT_SECRET } from "../support/server.ts"

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
