import { completeKycLink, createKycLink, KycLinkCompletion, KycLinkCreateRequest } from "../operations/verifications/kyc-links.ts"
import {
  getVerification,
  listVerifications,
  submitVerification,
  VerificationListQuery,
  VerificationRequest
} from "../operations/verifications/verifications.ts"
import { endpoint } from "./define.ts"

/**
 * KYC/KYB verifications: submissions and their results, the hosted link (a customers route, as
 * in the reference), and the sandbox control that completes a hosted flow.
 */
export const verificationEndpoints = [
  endpoint({
    group: "verifications",
    name: "submit",
    method: "POST",
    path: "/verifications",
    operationId: "createVerification",
    status: 200,
    summary: "Submit a customer for KYC or KYB: a new verification listing every missing item, or the sandbox's decision",
    body: VerificationRequest,
    run: (r) => submitVerification(r.platform, r.body)
  }),
  endpoint({
    group: "verifications",
    name: "list",
    method: "GET",
    path: "/verifications",
    operationId: "listVerifications",
    status: 200,
    summary: "List the platform's verifications oldest first, filtered by customer and status, paged by cursor",
    query: VerificationListQuery,
    run: (r) => listVerifications(r.platform, r.query)
  }),
  endpoint({
    group: "verifications",
    name: "get",
    method: "GET",
    path: "/verifications/{verificationId}",
    operationId: "getVerification",
    status: 200,
    summary: "Read one verification",
    run: (r) => getVerification(r.platform, r.params.verificationId)
  }),
  endpoint({
    group: "customers",
    name: "createKycLink",
    method: "POST",
    path: "/customers/{customerId}/kyc-link",
    operationId: "createCustomerKycLink",
    status: 201,
    summary: "A fresh single-use hosted KYC/KYB link for a customer; its status changes only when the flow completes",
    body: KycLinkCreateRequest,
    optionalBody: true,
    run: (r) => createKycLink(r.platform, r.params.customerId, r.body)
  }),
  endpoint({
    group: "sandbox",
    name: "completeKycLink",
    method: "POST",
    path: "/sandbox/kyc-links/{token}/complete",
    operationId: "tessera.completeKycLink",
    status: 200,
    summary: "Sandbox: complete the hosted flow behind a KYC link with an outcome (APPROVED, REJECTED or PENDING); the link is used up",
    body: KycLinkCompletion,
    run: (r) => completeKycLink(r.platform, r.params.token, r.body)
  })
]
