import { DelegatedKeyCreate, DelegatedKeyListQuery } from "../domain/delegated-keys/delegated-key.ts"
import { createDelegatedKey, getDelegatedKey, listDelegatedKeys, revokeDelegatedKey } from "../operations/delegated-keys/delegated-keys.ts"
import { endpoint } from "./define.ts"

/**
 * Delegated signing keys of embedded wallets' card funding sources. Creation is a signed retry
 * of three legs (202, 202, 201); revocation is a plain call, as the reference has it.
 */
export const delegatedKeyEndpoints = [
  endpoint({
    group: "delegated-keys",
    name: "create",
    method: "POST",
    path: "/auth/delegated-keys",
    operationId: "createDelegatedKey",
    status: 201,
    summary: "Delegate a card funding source's wallet signing to a server-custodied P-256 key: two stamped retries, then ACTIVE",
    body: DelegatedKeyCreate,
    signedRetry: true,
    run: (r) => createDelegatedKey(r.platform, r.body, r.headers, r.target)
  }),
  endpoint({
    group: "delegated-keys",
    name: "list",
    method: "GET",
    path: "/auth/delegated-keys",
    operationId: "listDelegatedKeys",
    status: 200,
    summary: "List the delegated keys of a wallet (`accountId`) and/or a card funding source (`fundingSourceId`), every status",
    query: DelegatedKeyListQuery,
    run: (r) => listDelegatedKeys(r.platform, r.query)
  }),
  endpoint({
    group: "delegated-keys",
    name: "get",
    method: "GET",
    path: "/auth/delegated-keys/{id}",
    operationId: "getDelegatedKeyById",
    status: 200,
    summary: "Read one delegated key (its public key only; the private key never leaves the server)",
    run: (r) => getDelegatedKey(r.platform, r.params.id)
  }),
  endpoint({
    group: "delegated-keys",
    name: "revoke",
    method: "DELETE",
    path: "/auth/delegated-keys/{id}",
    operationId: "revokeDelegatedKey",
    status: 204,
    summary: "Revoke an ACTIVE delegated key; it can no longer sign for the wallet",
    run: (r) => revokeDelegatedKey(r.platform, r.params.id)
  })
]
