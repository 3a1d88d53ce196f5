import { ExecuteQuoteRequest, QuoteRequest } from "../domain/quotes/request.ts"
import { createQuote } from "../operations/quotes/create.ts"
import { executeQuote } from "../operations/quotes/execute-call.ts"
import { getQuote } from "../operations/quotes/execute.ts"
import { authorizeQuote, resendQuoteScaCode } from "../operations/quotes/authorize.ts"
import { ScaAuthorization } from "../operations/sca/proof.ts"
import { endpoint } from "./define.ts"

/** Quotes: price a transfer, read it back, execute it (no list: the reference has none). */
export const quoteEndpoints = [
  endpoint({
    group: "quotes",
    name: "create",
    method: "POST",
    path: "/quotes",
    operationId: "createQuote",
    status: 201,
    summary: "Price a transfer at the rate of now (with real-time funding instructions), executing it at once if asked",
    body: QuoteRequest,
    documentBody: false,
    idempotent: true,
    run: (r) => createQuote(r.platform, r.body, r.idempotencyKey)
  }),
  endpoint({
    group: "quotes",
    name: "get",
    method: "GET",
    path: "/quotes/{quoteId}",
    operationId: "getQuoteById",
    status: 200,
    summary: "A quote, with the status of its transaction once executed",
    run: (r) => getQuote(r.platform, r.params.quoteId)
  }),
  endpoint({
    group: "quotes",
    name: "execute",
    method: "POST",
    path: "/quotes/{quoteId}/execute",
    operationId: "executeQuote",
    status: 200,
    summary: "Execute a quote (a signed retry when its source is an embedded wallet); the same Idempotency-Key answers the first answer",
    body: ExecuteQuoteRequest,
    optionalBody: true,
    signedRetry: true,
    idempotent: true,
    run: (r) => executeQuote(r.platform, r.params.quoteId, r.body, r.headers, r.target, r.idempotencyKey)
  }),
  endpoint({
    group: "quotes",
    name: "authorize",
    method: "POST",
    path: "/quotes/{quoteId}/authorize",
    operationId: "authorizeQuote",
    status: 200,
    summary: "Satisfy a PENDING_AUTHORIZATION quote's SCA challenge (sandbox code 123456; needs an SCA session)",
    body: ScaAuthorization,
    run: (r) => authorizeQuote(r.platform, r.params.quoteId, r.body)
  }),
  endpoint({
    group: "quotes",
    name: "resendAuthorization",
    method: "POST",
    path: "/quotes/{quoteId}/authorize/resend",
    operationId: "resendQuoteScaCode",
    status: 204,
    summary: "Send the SMS code of a quote's pending challenge again (same challenge, same expiry)",
    run: (r) => resendQuoteScaCode(r.platform, r.params.quoteId)
  })
]
