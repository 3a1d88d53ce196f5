import { Schema } from "effect"
import { BusinessCreate, BusinessUpdate, IndividualCreate, IndividualUpdate } from "../domain/customers/customer.ts"
import { createCustomer } from "../operations/customers/create.ts"
import { deleteCustomer, getCustomer, updateCustomer } from "../operations/customers/customers.ts"
import { CustomerListQuery, getEndUserTerms, listCustomers } from "../operations/customers/queries.ts"
import { ContactVerificationConfirmRequest } from "../domain/customers/contact-verification.ts"
import { confirmContactCode, sendContactCode } from "../operations/customers/contact-verification.ts"
import { BULK_CSV_MAX_BYTES } from "../limits.ts"
import { getBulkImportJob, importCustomersCsv } from "../operations/customers/bulk-import.ts"
import { endpoint, MultipartBodySchema } from "./define.ts"

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
  }),
  endpoint({
    group: "customers",
    name: "sendEmailVerification",
    method: "POST",
    path: "/customers/{customerId}/verify-email",
    operationId: "sendCustomerEmailVerification",
    status: 204,
    summary: "Send (or resend) an email verification code to a customer whose jurisdiction requires contact verification; the sandbox code is 123456",
    run: (r) => sendContactCode(r.platform, r.params.customerId, "email")
  }),
  endpoint({
    group: "customers",
    name: "confirmEmailVerification",
    method: "POST",
    path: "/customers/{customerId}/verify-email/confirm",
    operationId: "confirmCustomerEmailVerification",
    status: 200,
    summary: "Confirm the email verification code: contactVerification.email becomes VERIFIED",
    body: ContactVerificationConfirmRequest,
    run: (r) => confirmContactCode(r.platform, r.params.customerId, "email", r.body)
  }),
  endpoint({
    group: "customers",
    name: "sendPhoneVerification",
    method: "POST",
    path: "/customers/{customerId}/verify-phone",
    operationId: "sendCustomerPhoneVerification",
    status: 204,
    summary: "Send (or resend) a phone verification code to a customer whose jurisdiction requires contact verification; the sandbox code is 123456",
    run: (r) => sendContactCode(r.platform, r.params.customerId, "phone")
  }),
  endpoint({
    group: "customers",
    name: "confirmPhoneVerification",
    method: "POST",
    path: "/customers/{customerId}/verify-phone/confirm",
    operationId: "confirmCustomerPhoneVerification",
    status: 200,
    summary: "Confirm the phone verification code: contactVerification.phone becomes VERIFIED",
    body: ContactVerificationConfirmRequest,
    run: (r) => confirmContactCode(r.platform, r.params.customerId, "phone", r.body)
  }),
  endpoint({
    group: "customers",
    name: "uploadCsv",
    method: "POST",
    path: "/customers/bulk/csv",
    operationId: "uploadCustomersCsv",
    status: 202,
    summary: "Import customers from a CSV file, each row checked and created as POST /customers would; the job is complete when the 202 is answered",
    body: MultipartBodySchema,
    documentBody: false,
    // The file plus the multipart framing and headers around it.
    multipart: { maxBytes: BULK_CSV_MAX_BYTES + 64 * 1024 },
    run: (r) => importCustomersCsv(r.platform, r.body)
  }),
  endpoint({
    group: "customers",
    name: "getBulkJob",
    method: "GET",
    path: "/customers/bulk/jobs/{jobId}",
    operationId: "getBulkCustomerImportJob",
    status: 200,
    summary: "Read a bulk import job: its status, progress counts and each failed row's errors",
    run: (r) => getBulkImportJob(r.platform, r.params.jobId)
  })
]
