import { Schema } from "effect"

/**
 * The error catalogue: one tagged error per code of the spec's error tables, plus the codes of
 * the HTTP layer (DECISIONS #8) and the 429 of DECISIONS #10. The tag *is* the wire `code`, and
 * `status` is the HTTP status, so the envelope is derived and never re-stated at a call site.
 */
const envelopeFields = {
  message: Schema.String,
  details: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), {
    exact: true
  })
}
/**
 * The struct of the fields every code shares, built once: given a struct rather than its fields,
 * `Schema.TaggedError` uses it as it is (the same fields, the same schema) instead of building an
 * equal struct for each of the ~80 classes at load (DECISIONS #462).
 */
const fields = Schema.Struct(envelopeFields)

// 400
export class InvalidInput extends Schema.TaggedError<InvalidInput>()("INVALID_INPUT", fields) { readonly status = 400 }
export class EndUserTermsVersionNotFound extends Schema.TaggedError<EndUserTermsVersionNotFound>()("END_USER_TERMS_VERSION_NOT_FOUND", fields) { readonly status = 400 }
export class MissingMandatoryUserInfo extends Schema.TaggedError<MissingMandatoryUserInfo>()("MISSING_MANDATORY_USER_INFO", fields) { readonly status = 400 }
export class InvitationAlreadyClaimed extends Schema.TaggedError<InvitationAlreadyClaimed>()("INVITATION_ALREADY_CLAIMED", fields) { readonly status = 400 }
export class InvitationsNotConfigured extends Schema.TaggedError<InvitationsNotConfigured>()("INVITATIONS_NOT_CONFIGURED", fields) { readonly status = 400 }
export class InvalidUmaAddress extends Schema.TaggedError<InvalidUmaAddress>()("INVALID_UMA_ADDRESS", fields) { readonly status = 400 }
export class InvitationCancelled extends Schema.TaggedError<InvitationCancelled>()("INVITATION_CANCELLED", fields) { readonly status = 400 }
export class QuoteRequestFailed extends Schema.TaggedError<QuoteRequestFailed>()("QUOTE_REQUEST_FAILED", fields) { readonly status = 400 }
export class InvalidPayreqResponse extends Schema.TaggedError<InvalidPayreqResponse>()("INVALID_PAYREQ_RESPONSE", fields) { readonly status = 400 }
export class InvalidReceiver extends Schema.TaggedError<InvalidReceiver>()("INVALID_RECEIVER", fields) { readonly status = 400 }
export class ParsePayreqResponseError extends Schema.TaggedError<ParsePayreqResponseError>()("PARSE_PAYREQ_RESPONSE_ERROR", fields) { readonly status = 400 }
export class CertChainInvalid extends Schema.TaggedError<CertChainInvalid>()("CERT_CHAIN_INVALID", fields) { readonly status = 400 }
export class CertChainExpired extends Schema.TaggedError<CertChainExpired>()("CERT_CHAIN_EXPIRED", fields) { readonly status = 400 }
export class InvalidPubkeyFormat extends Schema.TaggedError<InvalidPubkeyFormat>()("INVALID_PUBKEY_FORMAT", fields) { readonly status = 400 }
export class MissingRequiredUmaParameters extends Schema.TaggedError<MissingRequiredUmaParameters>()("MISSING_REQUIRED_UMA_PARAMETERS", fields) { readonly status = 400 }
export class SenderNotAccepted extends Schema.TaggedError<SenderNotAccepted>()("SENDER_NOT_ACCEPTED", fields) { readonly status = 400 }
export class AmountOutOfRange extends Schema.TaggedError<AmountOutOfRange>()("AMOUNT_OUT_OF_RANGE", fields) { readonly status = 400 }
export class InvalidCurrency extends Schema.TaggedError<InvalidCurrency>()("INVALID_CURRENCY", fields) { readonly status = 400 }
export class InvalidTimestamp extends Schema.TaggedError<InvalidTimestamp>()("INVALID_TIMESTAMP", fields) { readonly status = 400 }
export class InvalidNonce extends Schema.TaggedError<InvalidNonce>()("INVALID_NONCE", fields) { readonly status = 400 }
export class InvalidRequestFormat extends Schema.TaggedError<InvalidRequestFormat>()("INVALID_REQUEST_FORMAT", fields) { readonly status = 400 }
export class InvalidBankAccount extends Schema.TaggedError<InvalidBankAccount>()("INVALID_BANK_ACCOUNT", fields) { readonly status = 400 }
export class SelfPayment extends Schema.TaggedError<SelfPayment>()("SELF_PAYMENT", fields) { readonly status = 400 }
export class LookupRequestFailed extends Schema.TaggedError<LookupRequestFailed>()("LOOKUP_REQUEST_FAILED", fields) { readonly status = 400 }
export class ParseLnurlpResponseError extends Schema.TaggedError<ParseLnurlpResponseError>()("PARSE_LNURLP_RESPONSE_ERROR", fields) { readonly status = 400 }
export class InvalidAmount extends Schema.TaggedError<InvalidAmount>()("INVALID_AMOUNT", fields) { readonly status = 400 }
export class WebhookEndpointNotSet extends Schema.TaggedError<WebhookEndpointNotSet>()("WEBHOOK_ENDPOINT_NOT_SET", fields) { readonly status = 400 }
export class WebhookDeliveryError extends Schema.TaggedError<WebhookDeliveryError>()("WEBHOOK_DELIVERY_ERROR", fields) { readonly status = 400 }
export class LowQuality extends Schema.TaggedError<LowQuality>()("LOW_QUALITY", fields) { readonly status = 400 }
export class DataMismatch extends Schema.TaggedError<DataMismatch>()("DATA_MISMATCH", fields) { readonly status = 400 }
export class Expired extends Schema.TaggedError<Expired>()("EXPIRED", fields) { readonly status = 400 }
export class SuspectedFraud extends Schema.TaggedError<SuspectedFraud>()("SUSPECTED_FRAUD", fields) { readonly status = 400 }
export class UnsuitableDocument extends Schema.TaggedError<UnsuitableDocument>()("UNSUITABLE_DOCUMENT", fields) { readonly status = 400 }
export class Incomplete extends Schema.TaggedError<Incomplete>()("INCOMPLETE", fields) { readonly status = 400 }
export class EmailOtpCredentialAlreadyExists extends Schema.TaggedError<EmailOtpCredentialAlreadyExists>()("EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS", fields) { readonly status = 400 }
export class SmsOtpCredentialAlreadyExists extends Schema.TaggedError<SmsOtpCredentialAlreadyExists>()("SMS_OTP_CREDENTIAL_ALREADY_EXISTS", fields) { readonly status = 400 }
export class PasskeyCredentialAlreadyExists extends Schema.TaggedError<PasskeyCredentialAlreadyExists>()("PASSKEY_CREDENTIAL_ALREADY_EXISTS", fields) { readonly status = 400 }
export class StablecoinProviderAccountInvalid extends Schema.TaggedError<StablecoinProviderAccountInvalid>()("STABLECOIN_PROVIDER_ACCOUNT_INVALID", fields) { readonly status = 400 }
export class StablecoinProviderAccountRevoked extends Schema.TaggedError<StablecoinProviderAccountRevoked>()("STABLECOIN_PROVIDER_ACCOUNT_REVOKED", fields) { readonly status = 400 }
export class StablecoinProviderAccountSelectionRequired extends Schema.TaggedError<StablecoinProviderAccountSelectionRequired>()("STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED", fields) { readonly status = 400 }
// Documented for createCard and updateCardById but missing from the reference's Error400 enum (a stated deviation).
export class FundingSourceIneligible extends Schema.TaggedError<FundingSourceIneligible>()("FUNDING_SOURCE_INELIGIBLE", fields) { readonly status = 400 }
export class CardholderKycNotApproved extends Schema.TaggedError<CardholderKycNotApproved>()("CARDHOLDER_KYC_NOT_APPROVED", fields) { readonly status = 400 }
export class TransactionSizeLimitExceeded extends Schema.TaggedError<TransactionSizeLimitExceeded>()("TRANSACTION_SIZE_LIMIT_EXCEEDED", fields) { readonly status = 400 }
export class ExternalAccountVerificationRequired extends Schema.TaggedError<ExternalAccountVerificationRequired>()("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED", fields) { readonly status = 400 }

// 401
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("UNAUTHORIZED", fields) { readonly status = 401 }
export class InvalidSignature extends Schema.TaggedError<InvalidSignature>()("INVALID_SIGNATURE", fields) { readonly status = 401 }
export class WalletSignatureMissing extends Schema.TaggedError<WalletSignatureMissing>()("WALLET_SIGNATURE_MISSING", fields) { readonly status = 401 }
export class WalletSignatureMalformed extends Schema.TaggedError<WalletSignatureMalformed>()("WALLET_SIGNATURE_MALFORMED", fields) { readonly status = 401 }
export class WalletSignatureBodyMismatch extends Schema.TaggedError<WalletSignatureBodyMismatch>()("WALLET_SIGNATURE_BODY_MISMATCH", fields) { readonly status = 401 }
export class WalletSignatureInvalid extends Schema.TaggedError<WalletSignatureInvalid>()("WALLET_SIGNATURE_INVALID", fields) { readonly status = 401 }
export class RequestIdMissing extends Schema.TaggedError<RequestIdMissing>()("REQUEST_ID_MISSING", fields) { readonly status = 401 }

// 403 (reference `Error403`): an API token without the permission the operation needs (DECISIONS #245), or a card that cannot be revealed in its state (#205)
export class Forbidden extends Schema.TaggedError<Forbidden>()("FORBIDDEN", fields) { readonly status = 403 }

// 404
export class TransactionNotFound extends Schema.TaggedError<TransactionNotFound>()("TRANSACTION_NOT_FOUND", fields) { readonly status = 404 }
export class InvitationNotFound extends Schema.TaggedError<InvitationNotFound>()("INVITATION_NOT_FOUND", fields) { readonly status = 404 }
export class UserNotFound extends Schema.TaggedError<UserNotFound>()("USER_NOT_FOUND", fields) { readonly status = 404 }
export class QuoteNotFound extends Schema.TaggedError<QuoteNotFound>()("QUOTE_NOT_FOUND", fields) { readonly status = 404 }
export class LookupRequestNotFound extends Schema.TaggedError<LookupRequestNotFound>()("LOOKUP_REQUEST_NOT_FOUND", fields) { readonly status = 404 }
export class TokenNotFound extends Schema.TaggedError<TokenNotFound>()("TOKEN_NOT_FOUND", fields) { readonly status = 404 }
export class BulkUploadJobNotFound extends Schema.TaggedError<BulkUploadJobNotFound>()("BULK_UPLOAD_JOB_NOT_FOUND", fields) { readonly status = 404 }
export class ReferenceNotFound extends Schema.TaggedError<ReferenceNotFound>()("REFERENCE_NOT_FOUND", fields) { readonly status = 404 }
export class UmaNotFound extends Schema.TaggedError<UmaNotFound>()("UMA_NOT_FOUND", fields) { readonly status = 404 }
export class StablecoinProviderAccountNotFound extends Schema.TaggedError<StablecoinProviderAccountNotFound>()("STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND", fields) { readonly status = 404 }

// 409
export class TransactionNotPendingPlatformApproval extends Schema.TaggedError<TransactionNotPendingPlatformApproval>()("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL", fields) { readonly status = 409 }
export class TransactionNotCancellable extends Schema.TaggedError<TransactionNotCancellable>()("TRANSACTION_NOT_CANCELLABLE", fields) { readonly status = 409 }
export class UmaAddressExists extends Schema.TaggedError<UmaAddressExists>()("UMA_ADDRESS_EXISTS", fields) { readonly status = 409 }
export class EmailOtpEmailAlreadyExists extends Schema.TaggedError<EmailOtpEmailAlreadyExists>()("EMAIL_OTP_EMAIL_ALREADY_EXISTS", fields) { readonly status = 409 }
export class EmailOtpCredentialSetChanged extends Schema.TaggedError<EmailOtpCredentialSetChanged>()("EMAIL_OTP_CREDENTIAL_SET_CHANGED", fields) { readonly status = 409 }
export class PasskeyAlreadyEnrolled extends Schema.TaggedError<PasskeyAlreadyEnrolled>()("PASSKEY_ALREADY_ENROLLED", fields) { readonly status = 409 }
export class ScaSessionRequired extends Schema.TaggedError<ScaSessionRequired>()("SCA_SESSION_REQUIRED", fields) { readonly status = 409 }
export class BeneficiaryTrusted extends Schema.TaggedError<BeneficiaryTrusted>()("BENEFICIARY_TRUSTED", fields) { readonly status = 409 }
export class InvalidStateTransition extends Schema.TaggedError<InvalidStateTransition>()("INVALID_STATE_TRANSITION", fields) { readonly status = 409 }
export class CardAlreadyClosed extends Schema.TaggedError<CardAlreadyClosed>()("CARD_ALREADY_CLOSED", fields) { readonly status = 409 }
export class CardNotMutable extends Schema.TaggedError<CardNotMutable>()("CARD_NOT_MUTABLE", fields) { readonly status = 409 }
export class Conflict extends Schema.TaggedError<Conflict>()("CONFLICT", fields) { readonly status = 409 }

// 410 (reference: DELETE of an already-deleted customer)
export class CustomerDeleted extends Schema.TaggedError<CustomerDeleted>()("CUSTOMER_DELETED", fields) { readonly status = 410 }

// 423 (reference `Error423`): an SCA customer's login is locked after failed attempts (DECISIONS #225)
export class AccountLocked extends Schema.TaggedError<AccountLocked>()("ACCOUNT_LOCKED", fields) { readonly status = 423 }

// 429 (DECISIONS #10)
export class RateLimited extends Schema.TaggedError<RateLimited>()("RATE_LIMITED", {
  ...envelopeFields,
  retryAfterSeconds: Schema.Number
}) { readonly status = 429 }

// 500
export class ServiceSwitchError extends Schema.TaggedError<ServiceSwitchError>()("SERVICE_SWITCH_ERROR", fields) { readonly status = 500 }
export class InternalError extends Schema.TaggedError<InternalError>()("INTERNAL_ERROR", fields) { readonly status = 500 }

// 503 (reference `Error503`): the health check when the store does not answer
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("SERVICE_UNAVAILABLE", fields) { readonly status = 503 }

// HTTP layer (DECISIONS #8): NOT_FOUND is only "no route"; a missing resource has a reference code
export class NotFound extends Schema.TaggedError<NotFound>()("NOT_FOUND", fields) { readonly status = 404 }
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("METHOD_NOT_ALLOWED", {
  ...envelopeFields,
  allow: Schema.Array(Schema.String)
}) { readonly status = 405 }
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PAYLOAD_TOO_LARGE", fields) { readonly status = 413 }
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UNSUPPORTED_MEDIA_TYPE", fields) { readonly status = 415 }
