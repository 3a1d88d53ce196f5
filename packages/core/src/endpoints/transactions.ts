import {
  ApproveBody,
  approveTransaction,
  cancelTransaction,
  ConfirmReceiptBody,
  confirmReceipt,
  getTransaction,
  ReasonBody,
  rejectTransaction
} from "../operations/transactions/transactions.ts"
import { endpoint } from "./define.ts"

/** Transactions: reading them where they stand on the engine's clock, and the platform's actions on them. */
export const transactionEndpoints = [
  endpoint({
    group: "transactions",
    name: "get",
    method: "GET",
    path: "/transactions/{transactionId}",
    operationId: "getTransactionById",
    status: 200,
    summary: "Read one transaction, with every outcome step due on the engine's clock applied",
    run: (r) => getTransaction(r.platform, r.params.transactionId)
  }),
  endpoint({
    group: "transactions",
    name: "confirm",
    method: "POST",
    path: "/transactions/{transactionId}/confirm",
    operationId: "confirmReceiptDelivery",
    status: 200,
    summary: "Record when the platform delivered the transaction's receipt (now, unless given); again replaces the time",
    body: ConfirmReceiptBody,
    optionalBody: true,
    run: (r) => confirmReceipt(r.platform, r.params.transactionId, r.body)
  }),
  endpoint({
    group: "transactions",
    name: "approve",
    method: "POST",
    path: "/transactions/{transactionId}/approve",
    operationId: "approvePendingPayment",
    status: 200,
    summary: "Approve an incoming payment waiting for the platform: it completes and is credited (409 when none is awaited)",
    body: ApproveBody,
    optionalBody: true,
    run: (r) => approveTransaction(r.platform, r.params.transactionId, r.body)
  }),
  endpoint({
    group: "transactions",
    name: "reject",
    method: "POST",
    path: "/transactions/{transactionId}/reject",
    operationId: "rejectPendingPayment",
    status: 200,
    summary: "Reject an incoming payment waiting for the platform: REJECTED, nothing credited (409 when none is awaited)",
    body: ReasonBody,
    optionalBody: true,
    run: (r) => rejectTransaction(r.platform, r.params.transactionId, r.body)
  }),
  endpoint({
    group: "transactions",
    name: "cancel",
    method: "POST",
    path: "/transactions/{transactionId}/cancel",
    operationId: "cancelTransaction",
    status: 200,
    summary: "Cancel a transfer that has not started processing: FAILED, its held money released (409 once processing)",
    body: ReasonBody,
    optionalBody: true,
    run: (r) => cancelTransaction(r.platform, r.params.transactionId, r.body)
  })
]
