import { CardCreate, CardRevealBody, CardUpdate, SimAdvice, SimAuthorization, SimBalanceInquiry, SimClearing, SimReturn, SimTransactionRef } from "../domain/cards/inputs.ts"
import { CardListQuery, createCard, getCard, listCards, updateCard } from "../operations/cards/cards.ts"
import { revealCard } from "../operations/cards/reveal.ts"
import {
  simulateAuthorizationAdvice,
  simulateBalanceInquiry,
  simulateClearing,
  simulateReturn,
  simulateReturnReversal,
  simulateStart
} from "../operations/cards/simulate.ts"
import { endpoint } from "./define.ts"

/** Cards: issuing, reading, freezing and closing, revealing their details. */
export const cardEndpoints = [
  endpoint({
    group: "cards",
    name: "create",
    method: "POST",
    path: "/cards",
    operationId: "createCard",
    status: 201,
    summary: "Issue a virtual card to a KYC-approved customer, funded by its internal accounts; the sandbox issuer decides by suffix",
    body: CardCreate,
    run: (r) => createCard(r.platform, r.body)
  }),
  endpoint({
    group: "cards",
    name: "list",
    method: "GET",
    path: "/cards",
    operationId: "listCards",
    status: 200,
    summary: "List the platform's cards newest first, by cardholder, funding source, platformCardId or state",
    query: CardListQuery,
    run: (r) => listCards(r.platform, r.query)
  }),
  endpoint({
    group: "cards",
    name: "get",
    method: "GET",
    path: "/cards/{id}",
    operationId: "getCardById",
    status: 200,
    summary: "Read a card where it stands on the engine's clock",
    run: (r) => getCard(r.platform, r.params.id)
  }),
  endpoint({
    group: "cards",
    name: "update",
    method: "PATCH",
    path: "/cards/{id}",
    operationId: "updateCardById",
    status: 200,
    summary: "Freeze, unfreeze or close a card, replace its funding sources or its per-transaction limit",
    body: CardUpdate,
    run: (r) => updateCard(r.platform, r.params.id, r.body)
  }),
  endpoint({
    group: "cards",
    name: "reveal",
    method: "POST",
    path: "/cards/{id}/reveal",
    operationId: "revealCard",
    status: 200,
    summary: "A short-lived reveal URL; with a clientPublicKey, the PAN, CVV and expiry sealed to it in the URL's fragment",
    body: CardRevealBody,
    optionalBody: true,
    run: (r) => revealCard(r.platform, r.params.id, r.body)
  })
]

const simulator = <const N extends string, const P extends string>(name: N, path: P, operationId: string, summary: string) =>
  ({ group: "sandbox", name, method: "POST", path, operationId, status: 202, summary }) as const

/** The sandbox card simulators: each answers 202 with the issuer's token (DECISIONS #206–#210). */
export const sandboxCardEndpoints = [
  endpoint({
    ...simulator("simulateCardAuthorization", "/sandbox/cards/{id}/simulate/authorization", "sandboxSimulateCardAuthorization", "Sandbox: an authorization on a card; approved ones hold the amount on a funding source"),
    body: SimAuthorization,
    run: (r) => simulateStart("AUTHORIZATION")(r.platform, r.params.id, r.body)
  }),
  endpoint({
    ...simulator("simulateCardClearing", "/sandbox/cards/{id}/simulate/clearing", "sandboxSimulateCardClearing", "Sandbox: a clearing settles held money; above the hold it pulls the rest, 0 expires the authorization"),
    body: SimClearing,
    run: (r) => simulateClearing(r.platform, r.params.id, r.body)
  }),
  endpoint({
    ...simulator("simulateCardReturn", "/sandbox/cards/{id}/simulate/return", "sandboxSimulateCardReturn", "Sandbox: a merchant's return credits the funding source; a full one makes the transaction REFUNDED"),
    body: SimReturn,
    run: (r) => simulateReturn(r.platform, r.params.id, r.body)
  }),
  endpoint({
    ...simulator("simulateCardBalanceInquiry", "/sandbox/cards/{id}/simulate/balance_inquiry", "sandboxSimulateCardBalanceInquiry", "Sandbox: a 0-amount balance inquiry, approved or declined, recording nothing"),
    body: SimBalanceInquiry,
    run: (r) => simulateBalanceInquiry(r.platform, r.params.id, r.body)
  }),
  endpoint({
    ...simulator("simulateCardCreditAuthorization", "/sandbox/cards/{id}/simulate/credit_authorization", "sandboxSimulateCardCreditAuthorization", "Sandbox: a credit authorization; the money arrives when it clears"),
    body: SimAuthorization,
    run: (r) => simulateStart("CREDIT_AUTHORIZATION")(r.platform, r.params.id, r.body)
  }),
  endpoint({
    ...simulator("simulateCardFinancialAuthorization", "/sandbox/cards/{id}/simulate/financial_authorization", "sandboxSimulateCardFinancialAuthorization", "Sandbox: a single-message debit, SETTLED at once"),
    body: SimAuthorization,
    run: (r) => simulateStart("FINANCIAL_AUTHORIZATION")(r.platform, r.params.id, r.body)
  }),
  endpoint({
    ...simulator(
      "simulateCardFinancialCreditAuthorization",
      "/sandbox/cards/{id}/simulate/financial_credit_authorization",
      "sandboxSimulateCardFinancialCreditAuthorization",
      "Sandbox: a single-message credit, SETTLED at once"
    ),
    body: SimAuthorization,
    run: (r) => simulateStart("FINANCIAL_CREDIT_AUTHORIZATION")(r.platform, r.params.id, r.body)
  }),
  endpoint({
    ...simulator("simulateCardAuthorizationAdvice", "/sandbox/cards/{id}/simulate/authorization_advice", "sandboxSimulateCardAuthorizationAdvice", "Sandbox: re-size an open authorization to a new total, holding or releasing the difference"),
    body: SimAdvice,
    run: (r) => simulateAuthorizationAdvice(r.platform, r.params.id, r.body)
  }),
  endpoint({
    ...simulator(
      "simulateCardCreditAuthorizationAdvice",
      "/sandbox/cards/{id}/simulate/credit_authorization_advice",
      "sandboxSimulateCardCreditAuthorizationAdvice",
      "Sandbox: a network-initiated credit advice, as a credit authorization"
    ),
    body: SimAuthorization,
    run: (r) => simulateStart("CREDIT_AUTHORIZATION")(r.platform, r.params.id, r.body)
  }),
  endpoint({
    ...simulator("simulateCardReturnReversal", "/sandbox/cards/{id}/simulate/return_reversal", "sandboxSimulateCardReturnReversal", "Sandbox: reverse a REFUNDED transaction's returns, taking the money back"),
    body: SimTransactionRef,
    run: (r) => simulateReturnReversal(r.platform, r.params.id, r.body)
  })
]
