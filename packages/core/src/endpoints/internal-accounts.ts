import { ExportBody, InternalAccountUpdate } from "../domain/wallet-auth/inputs.ts"
import { CustomerAccountsQuery, listCustomerInternalAccounts } from "../operations/internal-accounts/queries.ts"
import { exportWallet, updateInternalAccount } from "../operations/internal-accounts/wallet-account.ts"
import { endpoint } from "./define.ts"

/** The customers' internal accounts; the platform's own are in the platform group. */
export const internalAccountEndpoints = [
  endpoint({
    group: "internal-accounts",
    name: "list",
    method: "GET",
    path: "/customers/internal-accounts",
    operationId: "listCustomerInternalAccounts",
    status: 200,
    summary: "List the internal accounts of the platform's customers",
    query: CustomerAccountsQuery,
    run: (r) => listCustomerInternalAccounts(r.platform, r.query)
  }),
  endpoint({
    group: "internal-accounts",
    name: "export",
    method: "POST",
    path: "/internal-accounts/{id}/export",
    operationId: "exportInternalAccount",
    status: 200,
    summary: "Export the wallet's BIP-39 mnemonic, sealed to the client's key (a signed retry)",
    body: ExportBody,
    signedRetry: true,
    run: (r) => exportWallet(r.platform, r.params.id, r.body, r.headers, r.target)
  }),
  endpoint({
    group: "internal-accounts",
    name: "update",
    method: "PATCH",
    path: "/internal-accounts/{id}",
    operationId: "updateInternalAccount",
    status: 200,
    summary: "Turn the wallet's privacy on or off (a signed retry)",
    body: InternalAccountUpdate,
    signedRetry: true,
    run: (r) => updateInternalAccount(r.platform, r.params.id, r.body, r.headers, r.target)
  })
]
