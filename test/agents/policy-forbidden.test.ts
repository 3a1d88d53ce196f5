import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { deviations, referenceFacts } from "@tessera/adapter-http/openapi"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { usd } from "../external-accounts/support.ts"
import { connectedAgent, customerWithAccounts, policy, V } from "./support.ts"

/**
 * What an agent's policy does not grant is 403 on its reads and external-account routes too, a
 * status the reference does not declare there: the adapter's deviations state it, so the
 * served document and the response checker know it (DECISIONS #393).
 */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("an agent's policy on its reads (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  it("without VIEW_TRANSACTIONS or MANAGE_EXTERNAL_ACCOUNTS those routes are 403, each recorded as a deviation where the reference lacks it", async () => {
    const c = await customerWithAccounts(t, 0)
    const a = await connectedAgent(t, c.customerId, policy({ permissions: ["CREATE_TRANSFERS"] }))
    const calls: ReadonlyArray<readonly [string, string, string, unknown?]> = [
      ["agentListTransactions", "GET", `${V}/agents/me/transactions`],
      ["agentGetTransaction", "GET", `${V}/agents/me/transactions/Transaction:00000000-0000-4000-8000-000000000000`],
      ["agentListExternalAccounts", "GET", `${V}/agents/me/external-accounts`],
      ["agentCreateExternalAccount", "POST", `${V}/agents/me/external-accounts`, usd("555000999")],
      ["agentGetExternalAccount", "GET", `${V}/agents/me/external-accounts/${c.bankId}`],
      ["agentDeleteExternalAccount", "DELETE", `${V}/agents/me/external-accounts/${c.bankId}`]
    ]
    for (const [operationId, method, path, body] of calls) {
      const r = await t.request(method, path, { auth: a.bearer, ...(body === undefined ? {} : { body }) })
      expect([operationId, r.status, r.body.details?.reason]).toEqual([operationId, 403, "AGENT_PERMISSION_MISSING"])
      const declared = referenceFacts.operations[operationId]?.responses["403"] !== undefined || deviations.addedErrorResponses[operationId]?.["403"] !== undefined
      expect([operationId, declared]).toEqual([operationId, true])
    }
  })
})
