import { ScaFactorConfirmRequest, ScaFactorEnrollRequest, confirmScaFactorEnrollment, deleteScaFactor, listScaFactors, startScaFactorEnrollment } from "../operations/sca/factors.ts"
import { RecordSecurityEventRequest, ScaLoginCompleteRequest, ScaLoginStartRequest, completeScaLogin, recordSecurityEvent, startScaLogin } from "../operations/sca/login.ts"
import { ScaCustomerQuery } from "../operations/sca/customer.ts"
import {
  TwoFactorResetCompleteRequest,
  TwoFactorResetStartRequest,
  completeTwoFactorReset,
  getTwoFactorResetStatus,
  startTwoFactorReset
} from "../operations/sca/reset.ts"
import { endpoint } from "./define.ts"

/** Strong customer authentication of EU/EEA customers: factors, login sessions, security events, 2FA resets. */
export const scaEndpoints = [
  endpoint({
    group: "sca",
    name: "listFactors",
    method: "GET",
    path: "/sca/factors",
    operationId: "listScaFactors",
    status: 200,
    summary: "A customer's SCA factors: SMS_OTP always, TOTP and PASSKEY once enrolled",
    query: ScaCustomerQuery,
    run: (r) => listScaFactors(r.platform, r.query)
  }),
  endpoint({
    group: "sca",
    name: "startEnrollment",
    method: "POST",
    path: "/sca/factors",
    operationId: "startScaFactorEnrollment",
    status: 200,
    summary: "Start enrolling a TOTP or passkey factor (needs an SCA session; one passkey per customer)",
    query: ScaCustomerQuery,
    body: ScaFactorEnrollRequest,
    run: (r) => startScaFactorEnrollment(r.platform, r.query, r.body)
  }),
  endpoint({
    group: "sca",
    name: "confirmEnrollment",
    method: "POST",
    path: "/sca/factors/confirm",
    operationId: "confirmScaFactorEnrollment",
    status: 200,
    summary: "Confirm an enrollment: the TOTP code (sandbox 123456) or the passkey's WebAuthn registration",
    query: ScaCustomerQuery,
    body: ScaFactorConfirmRequest,
    run: (r) => confirmScaFactorEnrollment(r.platform, r.query, r.body)
  }),
  endpoint({
    group: "sca",
    name: "deleteFactor",
    method: "DELETE",
    path: "/sca/factors/{credentialId}",
    operationId: "deleteScaFactor",
    status: 204,
    summary: "Delete the customer's passkey factor by its credentialId (needs an SCA session)",
    query: ScaCustomerQuery,
    run: (r) => deleteScaFactor(r.platform, r.params.credentialId, r.query)
  }),
  endpoint({
    group: "sca",
    name: "startLogin",
    method: "POST",
    path: "/sca/login/start",
    operationId: "startScaLogin",
    status: 200,
    summary: "Start an SCA login with an enrolled factor",
    query: ScaCustomerQuery,
    body: ScaLoginStartRequest,
    run: (r) => startScaLogin(r.platform, r.query, r.body)
  }),
  endpoint({
    group: "sca",
    name: "completeLogin",
    method: "POST",
    path: "/sca/login/complete",
    operationId: "completeScaLogin",
    status: 200,
    summary: "Complete an SCA login with its proof, opening the customer's SCA session",
    query: ScaCustomerQuery,
    body: ScaLoginCompleteRequest,
    run: (r) => completeScaLogin(r.platform, r.query, r.body)
  }),
  endpoint({
    group: "sca",
    name: "recordEvent",
    method: "POST",
    path: "/sca/record-event",
    operationId: "recordSecurityEvent",
    status: 200,
    summary: "Record a failed login (escalating lockout) or a password reset (revokes the session, clears the lock)",
    query: ScaCustomerQuery,
    body: RecordSecurityEventRequest,
    run: (r) => recordSecurityEvent(r.platform, r.query, r.body)
  }),
  endpoint({
    group: "sca",
    name: "startReset",
    method: "POST",
    path: "/sca/factors/reset",
    operationId: "startTwoFactorReset",
    status: 201,
    summary: "Start a liveness-gated reset of an enrolled factor (5 per customer in 24 hours)",
    query: ScaCustomerQuery,
    body: TwoFactorResetStartRequest,
    run: (r) => startTwoFactorReset(r.platform, r.query, r.body)
  }),
  endpoint({
    group: "sca",
    name: "getReset",
    method: "GET",
    path: "/sca/factors/reset/{resetId}",
    operationId: "getTwoFactorResetStatus",
    status: 200,
    summary: "A 2FA reset's status: INITIATED, LIVENESS_PASSED once the sandbox's liveness passed, COMPLETED, EXPIRED",
    query: ScaCustomerQuery,
    run: (r) => getTwoFactorResetStatus(r.platform, r.params.resetId, r.query)
  }),
  endpoint({
    group: "sca",
    name: "completeReset",
    method: "POST",
    path: "/sca/factors/reset/{resetId}/complete",
    operationId: "completeTwoFactorReset",
    status: 204,
    summary: "Complete a 2FA reset after liveness: the factor is cleared (SMS_OTP: the new mobile becomes the customer's)",
    query: ScaCustomerQuery,
    body: TwoFactorResetCompleteRequest,
    optionalBody: true,
    run: (r) => completeTwoFactorReset(r.platform, r.params.resetId, r.query, r.body)
  })
]
