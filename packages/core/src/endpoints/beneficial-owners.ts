import { BeneficialOwnerCreate, BeneficialOwnerUpdate } from "../domain/beneficial-owners/inputs.ts"
import {
  BeneficialOwnerListQuery,
  createBeneficialOwner,
  getBeneficialOwner,
  listBeneficialOwners,
  updateBeneficialOwner
} from "../operations/beneficial-owners/beneficial-owners.ts"
import { endpoint } from "./define.ts"

/** The beneficial owners, directors and officers of business customers. */
export const beneficialOwnerEndpoints = [
  endpoint({
    group: "beneficial-owners",
    name: "create",
    method: "POST",
    path: "/beneficial-owners",
    operationId: "createBeneficialOwner",
    status: 201,
    summary: "Add a beneficial owner to a business customer; UNVERIFIED until the business resolves",
    body: BeneficialOwnerCreate,
    run: (r) => createBeneficialOwner(r.platform, r.body)
  }),
  endpoint({
    group: "beneficial-owners",
    name: "list",
    method: "GET",
    path: "/beneficial-owners",
    operationId: "listBeneficialOwners",
    status: 200,
    summary: "List a business customer's beneficial owners oldest first, paged by cursor",
    query: BeneficialOwnerListQuery,
    run: (r) => listBeneficialOwners(r.platform, r.query)
  }),
  endpoint({
    group: "beneficial-owners",
    name: "get",
    method: "GET",
    path: "/beneficial-owners/{beneficialOwnerId}",
    operationId: "getBeneficialOwner",
    status: 200,
    summary: "Read one beneficial owner (its identifier is never shown)",
    run: (r) => getBeneficialOwner(r.platform, r.params.beneficialOwnerId)
  }),
  endpoint({
    group: "beneficial-owners",
    name: "update",
    method: "PATCH",
    path: "/beneficial-owners/{beneficialOwnerId}",
    operationId: "updateBeneficialOwner",
    status: 200,
    summary: "Change a beneficial owner's given fields; personalInfo merges field by field",
    body: BeneficialOwnerUpdate,
    run: (r) => updateBeneficialOwner(r.platform, r.params.beneficialOwnerId, r.body)
  })
]
