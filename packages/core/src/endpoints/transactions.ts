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
import { listTransactions, TransactionListQuery } from "../operations/transactions/list.ts"
import { TransferInBody, transferIn, TransferOutBody, transferOut } from "../operations/transactions/transfers.ts"
import { endpoint } from "./define.ts"

/** Transactions: reading them where they stand on the engine's clock, and the platform's actions on them. */
export const transactionEndpoints = [
  endpoint({
    group: "transactions",
    name: "list",
    method: "GET",
    path: "/transactions",
    operationId: "listTransactions",
    status: 200,
    summary: "List the platform's transactions, newest first unless sortOrder=asc, filtered as the reference names, paged by cursor",
    query: TransactionListQuery,
    run: (r) => listTransactions(r.platform, r.query)
  }),
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
  }),
  endpoint({
    group: "transactions",
    name: "transferIn",
    method: "POST",
    path: "/transfer-in",
    operationId: "createTransferIn",
    status: 201,
    summary: "Pull money from a customer's external account into an internal account; the sandbox outcome follows the external account's suffix",
    body: TransferInBody,
    idempotent: true,
    run: (r) => transferIn(r.platform, r.body, r.idempotencyKey)
  }),
  endpoint({
    group: "transactions",
    name: "transferOut",
    method: "POST",
    path: "/transfer-out",
    operationId: "createTransferOut",
    status: 201,
    summary: "Pay money from an internal account out to an external account; the sandbox outcome follows the external account's suffix",
    body: TransferOutBody,
    idempotent: true,
    run: (r) => transferOut(r.platform, r.body, r.idempotencyKey)
  })
]
