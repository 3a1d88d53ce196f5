import { Schema } from "effect"
import { BusinessCreate, BusinessUpdate, IndividualCreate, IndividualUpdate } from "../domain/customers/customer.ts"
import { createCustomer, deleteCustomer, getCustomer, updateCustomer } from "../operations/customers/customers.ts"
import { CustomerListQuery, getEndUserTerms, listCustomers } from "../operations/customers/queries.ts"
import { endpoint } from "./define.ts"

export const customerEndpoints = [
  endpoint({
    group: "customers",
    name: "create",
    method: "POST",
    path: "/customers",
    operationId: "createCustomer",
    status: 201,
    summary: "Create an individual or business customer with its embedded wallet, and the wallet's email OTP credential when it has an email",
    body: Schema.Union(IndividualCreate, BusinessCreate),
    run: (r) => createCustomer(r.platform, r.body)
  }),
  endpoint({
    group: "customers",
    name: "list",
    method: "GET",
    path: "/customers",
    operationId: "listCustomers",
    status: 200,
    summary: "List the platform's customers in creation order, filtered and paged by cursor",
    query: CustomerListQuery,
    run: (r) => listCustomers(r.platform, r.query)
  }),
  endpoint({
    group: "customers",
    name: "endUserTerms",
    method: "GET",
    path: "/customers/end-user-terms",
    operationId: "getEndUserTerms",
    status: 200,
    summary: "The current End User Terms: the version a customer's consent names, and where to read them",
    run: () => getEndUserTerms()
  }),
  endpoint({
    group: "customers",
    name: "get",
    method: "GET",
    path: "/customers/{customerId}",
    operationId: "getCustomerById",
    status: 200,
    summary: "Read one customer",
    run: (r) => getCustomer(r.platform, r.params.customerId)
  }),
  endpoint({
    group: "customers",
    name: "update",
    method: "PATCH",
    path: "/customers/{customerId}",
    operationId: "updateCustomerById",
    status: 200,
    summary: "Change a customer's fields; a new email that a wallet credential is tied to takes a signed retry",
    body: Schema.Union(IndividualUpdate, BusinessUpdate),
    signedRetry: true,
    run: (r) => updateCustomer(r.platform, r.params.customerId, r.body, r.headers, r.target)
  }),
  endpoint({
    group: "customers",
    name: "delete",
    method: "DELETE",
    path: "/customers/{customerId}",
    operationId: "deleteCustomerById",
    status: 200,
    summary: "Delete a customer; the answer is the customer as it was",
    run: (r) => deleteCustomer(r.platform, r.params.customerId)
  })
]
