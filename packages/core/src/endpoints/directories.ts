import { DiscoveryQuery, listDiscoveries, listUmaProviders, listVasps, UmaProviderListQuery, VaspListQuery } from "../operations/directories/directories.ts"
import { endpoint } from "./define.ts"

/** The read-only directories a platform consults before declaring accounts and counterparties. */
export const directoryEndpoints = [
  endpoint({
    group: "directories",
    name: "discoveries",
    method: "GET",
    path: "/discoveries",
    operationId: "getDiscoveries",
    status: 200,
    summary: "List the receiving banks and payment providers of a country and/or currency (all when neither is given)",
    query: DiscoveryQuery,
    run: (r) => listDiscoveries(r.query)
  }),
  endpoint({
    group: "directories",
    name: "umaProviders",
    method: "GET",
    path: "/uma-providers",
    operationId: "getAvailableUmaProviders",
    status: 200,
    summary: "List the UMA providers, filtered by region, currency and allow list, by name, paged",
    query: UmaProviderListQuery,
    run: (r) => listUmaProviders(r.query)
  }),
  endpoint({
    group: "directories",
    name: "vasps",
    method: "GET",
    path: "/vasps",
    operationId: "listVasps",
    status: 200,
    summary: "List the VASPs a custodial wallet may name as `vaspName`, paged",
    query: VaspListQuery,
    run: (r) => listVasps(r.query)
  })
]
