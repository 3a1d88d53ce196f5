import Fastify from "fastify"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { nodeListener } from "@tessera/adapter-http"

export const engine = makeEngine({ store: MemoryStore.layer })
await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })

const tessera = nodeListener(engine, { prefix: "/tessera" })

export const app = Fastify()
await app.register(
  async (scope) => {
    // Leave bodies unread in this scope: Tessera reads, caps and checks them itself.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null))
    scope.all("/*", (request, reply) => {
      reply.hijack()
      tessera(request.raw, reply.raw)
    })
  },
  { prefix: "/tessera" }
)
