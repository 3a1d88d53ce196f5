import { ExecuteQuoteRequest, QuoteRequest } from "../domain/quotes/request.ts"
import { createQuote } from "../operations/quotes/create.ts"
import { executeQuote } from "../operations/quotes/execute-call.ts"
import { getQuote } from "../operations/quotes/execute.ts"
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
  })
]
