import { SandboxSendRequest, SandboxUmaReceiveRequest } from "../domain/quotes/request.ts"
import { sandboxSend } from "../operations/sandbox/send.ts"
import { sandboxUmaReceive } from "../operations/sandbox/uma-receive.ts"
import { endpoint } from "./define.ts"

/** The reference's sandbox payments: paying a quote's funding instructions, receiving a UMA payment. */
export const sandboxPaymentEndpoints = [
  endpoint({
    group: "sandbox",
    name: "send",
    method: "POST",
    path: "/sandbox/send",
    operationId: "sandboxSend",
    status: 200,
    summary: "Sandbox: pay a real-time funded quote's instructions; the quote proceeds",
    body: SandboxSendRequest,
    run: (r) => sandboxSend(r.platform, r.body)
  }),
  endpoint({
    group: "sandbox",
    name: "receiveUma",
    method: "POST",
    path: "/sandbox/uma/receive",
    operationId: "sandboxReceive",
    status: 200,
    summary: "Sandbox: an incoming UMA payment to a customer, into its default UMA deposit account or its primary internal account",
    body: SandboxUmaReceiveRequest,
    run: (r) => sandboxUmaReceive(r.platform, r.body)
  })
]
