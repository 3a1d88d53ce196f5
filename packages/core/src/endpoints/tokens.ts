import { ApiTokenCreate } from "../domain/platform/api-token.ts"
import { createToken, deleteToken, getToken, listTokens, TokenListQuery } from "../operations/platform/tokens.ts"
import { endpoint } from "./define.ts"

/** API tokens: further Basic credentials of the platform, each with its permissions (DECISIONS #244–#247). */
export const tokenEndpoints = [
  endpoint({
    group: "platform",
    name: "createToken",
    method: "POST",
    path: "/tokens",
    operationId: "createToken",
    status: 201,
    summary: "Create an API token; its clientSecret is in this answer only",
    body: ApiTokenCreate,
    run: (r) => createToken(r.platform, r.body)
  }),
  endpoint({
    group: "platform",
    name: "listTokens",
    method: "GET",
    path: "/tokens",
    operationId: "listTokens",
    status: 200,
    summary: "List the platform's API tokens oldest first, filtered by name and times, paged by cursor",
    query: TokenListQuery,
    run: (r) => listTokens(r.platform, r.query)
  }),
  endpoint({
    group: "platform",
    name: "getToken",
    method: "GET",
    path: "/tokens/{tokenId}",
    operationId: "getTokenById",
    status: 200,
    summary: "Read one API token (never its secret)",
    run: (r) => getToken(r.platform, r.params.tokenId)
  }),
  endpoint({
    group: "platform",
    name: "deleteToken",
    method: "DELETE",
    path: "/tokens/{tokenId}",
    operationId: "deleteTokenById",
    status: 204,
    summary: "Delete an API token: its credentials stop working at once",
    run: (r) => deleteToken(r.platform, r.params.tokenId)
  })
]
