/// A rule across parameters of one action, in the action table.
public enum ParameterRule: Sendable, Equatable {
    /// The integer `name` is at most the integer `limit` when both are present (`tipAmount` ≤ `amount`).
    case notAbove(String, limit: String)
    /// `name` is required when the flag `flag` is `true` (`preferredInstallments` with `withInstallments`).
    case requiredWhenTrue(String, flag: String)
    /// `name` is allowed only when the flag `flag` is present and `true`.
    case onlyWhenTrue(String, flag: String)
    /// `name` is allowed only when the parameter `key` equals `value` (`batchId` only with `command: close`).
    case onlyWhen(String, key: String, equals: String)
    /// Any parameter whose name starts with `prefix` requires every one of `names` (the `ISV_` group).
    case prefixRequires(String, names: [String])
    /// `name` may be above 0 only when `flag` is not true (a tip with installments: Viva's iOS sample
    /// refuses it): `invalid_combination`.
    case zeroWhenTrue(String, flag: String)
}
