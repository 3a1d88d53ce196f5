import { describe, expect, it } from "vitest"
import { DELETE, GET, PATCH, POST, PUT } from "../examples/mount-next-route.ts"
import { callerFor, expectBodyErrors, expectConsumedEnvelope, expectCustomerRoundTrip } from "./support.ts"

/** What Next.js does for app/tessera/[...path]/route.ts: the exported function of the request's method. */
const route = (request: Request): Promise<Response> => {
  const byMethod: Record<string, (r: Request) => Promise<Response>> = { GET, POST, PUT, PATCH, DELETE }
  return byMethod[request.method]!(request)
}

describe("Next.js route handler (recipe), called with real Requests", () => {
  it("creates, patches and reads a customer under /tessera, and answers 413, 415 and malformed JSON", async () => {
    const call = callerFor(route, "http://localhost:3000/tessera")
    await expectCustomerRoundTrip(call)
    await expectBodyErrors(call)
  })

  it("every method the route table uses is exported: the state export imports back through PUT", async () => {
    const call = callerFor(route, "http://localhost:3000/tessera")
    const exported = await call("GET", "/sandbox/state")
    expect(exported.status).toBe(200)
    const imported = await call("PUT", "/sandbox/state", { json: exported.body })
    expect(imported.status).toBe(200)
    expect(imported.body.imported).toBeDefined()
  })

  it("a Request whose body was already read gets the envelope at once", async () => {
    const readFirst = async (request: Request) => {
      if (request.body !== null) await request.text()
      return route(request)
    }
    await expectConsumedEnvelope(callerFor(readFirst, "http://localhost:3000/tessera"))
  })
})
