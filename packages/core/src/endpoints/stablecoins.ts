import { ProviderAccountLink, StablecoinBurn, StablecoinMint, StablecoinRegister } from "../domain/stablecoins/inputs.ts"
import { createBurn, createMint, getOperation, listOperations, OperationListQuery } from "../operations/stablecoins/issuance.ts"
import { getProviderAccount, linkProviderAccount, listProviderAccounts, ProviderAccountListQuery } from "../operations/stablecoins/provider-accounts.ts"
import { getStablecoin, listStablecoins, registerStablecoin, StablecoinListQuery } from "../operations/stablecoins/stablecoins.ts"
import { endpoint } from "./define.ts"

/** Stablecoin issuance: provider account links, registered stablecoins, their mints and burns (DECISIONS #350–#369). */
export const stablecoinEndpoints = [
  endpoint({
    group: "stablecoins",
    name: "register",
    method: "POST",
    path: "/stablecoins",
    operationId: "registerStablecoin",
    status: 201,
    summary: "Register a token the provider already issued, through the platform's ACTIVE provider account link",
    body: StablecoinRegister,
    idempotent: true,
    run: (r) => registerStablecoin(r.platform, r.body, r.idempotencyKey)
  }),
  endpoint({
    group: "stablecoins",
    name: "list",
    method: "GET",
    path: "/stablecoins",
    operationId: "listStablecoins",
    status: 200,
    summary: "List the platform's stablecoins in registration order, by issuance status, Grid operations status or provider",
    query: StablecoinListQuery,
    run: (r) => listStablecoins(r.platform, r.query)
  }),
  endpoint({
    group: "stablecoins",
    name: "get",
    method: "GET",
    path: "/stablecoins/{stablecoinId}",
    operationId: "getStablecoin",
    status: 200,
    summary: "Read a registered stablecoin",
    run: (r) => getStablecoin(r.platform, r.params.stablecoinId)
  }),
  endpoint({
    group: "stablecoins",
    name: "createMint",
    method: "POST",
    path: "/stablecoins/{stablecoinId}/mints",
    operationId: "createStablecoinMint",
    status: 201,
    summary: "Mint: fiat from the funding source into the stablecoin's reserve, tokens to a Spark wallet; the sandbox outcome follows the amount's cents",
    body: StablecoinMint,
    idempotent: true,
    run: (r) => createMint(r.platform, r.params.stablecoinId, r.body, r.idempotencyKey)
  }),
  endpoint({
    group: "stablecoins",
    name: "createBurn",
    method: "POST",
    path: "/stablecoins/{stablecoinId}/burns",
    operationId: "createStablecoinBurn",
    status: 201,
    summary: "Burn: tokens back to the provider, the reserve paid out to a bank account; the sandbox outcome follows the amount's cents",
    body: StablecoinBurn,
    idempotent: true,
    run: (r) => createBurn(r.platform, r.params.stablecoinId, r.body, r.idempotencyKey)
  }),
  endpoint({
    group: "stablecoins",
    name: "listOperations",
    method: "GET",
    path: "/stablecoins/{stablecoinId}/operations",
    operationId: "listStablecoinOperations",
    status: 200,
    summary: "List a stablecoin's mints and burns, most recent first, by type",
    query: OperationListQuery,
    run: (r) => listOperations(r.platform, r.params.stablecoinId, r.query)
  }),
  endpoint({
    group: "stablecoins",
    name: "getOperation",
    method: "GET",
    path: "/stablecoin-operations/{stablecoinOperationId}",
    operationId: "getStablecoinOperation",
    status: 200,
    summary: "Read a mint or burn where it stands on the engine's clock",
    run: (r) => getOperation(r.platform, r.params.stablecoinOperationId)
  }),
  endpoint({
    group: "stablecoins",
    name: "linkProviderAccount",
    method: "POST",
    path: "/stablecoin-provider-accounts",
    operationId: "linkStablecoinProviderAccount",
    status: 201,
    summary: "Link provider API credentials; the sandbox provider judges them by the apiClientId's suffix, and linking an account again refreshes it",
    body: ProviderAccountLink,
    idempotent: true,
    run: (r) => linkProviderAccount(r.platform, r.body, r.idempotencyKey)
  }),
  endpoint({
    group: "stablecoins",
    name: "listProviderAccounts",
    method: "GET",
    path: "/stablecoin-provider-accounts",
    operationId: "listStablecoinProviderAccounts",
    status: 200,
    summary: "List the platform's provider account links, by provider and status",
    query: ProviderAccountListQuery,
    run: (r) => listProviderAccounts(r.platform, r.query)
  }),
  endpoint({
    group: "stablecoins",
    name: "getProviderAccount",
    method: "GET",
    path: "/stablecoin-provider-accounts/{stablecoinProviderAccountId}",
    operationId: "getStablecoinProviderAccount",
    status: 200,
    summary: "Read a provider account link where it stands on the engine's clock",
    run: (r) => getProviderAccount(r.platform, r.params.stablecoinProviderAccountId)
  })
]
