import InterApp
import Testing

private let sale = #""id":"c1","lane":"lane-1","action":"sale""#
private let cancel = #""id":"c1","lane":"lane-1","action":"cancel""#
private let isv = #""ISV_clientId":"cid","ISV_clientSecret":"s3cret","ISV_amount":10"#

/// What v1.1 changed in validation (issue 12, items 5 to 7).
@Suite("Command validation, v1.1")
struct CommandValidationV11Tests {
    static let cases: [ValidationCase] = [
        // A tip with installments: refused as a combination, on every platform.
        ValidationCase(
            #"{\#(sale),"amount":1200,"tipAmount":100,"withInstallments":true,"preferredInstallments":3}"#,
            .invalidCombination),
        ValidationCase(
            #"{\#(sale),"amount":1200,"tipAmount":0,"withInstallments":true,"preferredInstallments":3}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,"tipAmount":100,"withInstallments":false}"#, nil),
        // Cancels take the show_* flags; protocol stays the bridge's own.
        ValidationCase(
            #"{\#(cancel),"referenceNumber":"60646","show_receipt":false,"show_transaction_result":false,"show_rating":false}"#,
            nil),
        ValidationCase(#"{\#(cancel),"show_receipt":"no"}"#, .invalidValue),
        ValidationCase(#"{\#(cancel),"protocol":"int_default"}"#, .reservedField),
        // Sale parameters from Viva's public pages.
        ValidationCase(#"{\#(sale),"amount":1200,\#(isv),"ISV_currencyCode":"978"}"#, nil),
        ValidationCase(#"{\#(sale),"amount":1200,\#(isv),"ISV_currencyCode":"EUR"}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,\#(isv),"ISV_currencyCode":"9780"}"#, .invalidValue),
        ValidationCase(#"{\#(sale),"amount":1200,"ISV_currencyCode":"978"}"#, .missingField),
        ValidationCase(#"{\#(sale),"amount":1200,"saleToAcquirerData":"eyJhcHBsaWNhdGlvbkluZm8iOnt9fQ=="}"#, nil),
        ValidationCase(
            #"{\#(sale),"amount":1200,"aadeProviderId":"999","aadeProviderSignatureData":"A;B;C","aadeProviderSignature":"MEUCIQ","fiscalisationData":"{}"}"#,
            nil),
        ValidationCase(#"{\#(sale),"amount":1200,"aadeProviderId":7}"#, .invalidValue),
    ]

    @Test("each rule accepts what it should and refuses the rest with its code", arguments: cases)
    func rule(_ row: ValidationCase) {
        do {
            _ = try CommandDecoder().decode(Array(row.json.utf8))
            #expect(row.code == nil, "accepted, expected \(row.code?.rawValue ?? "")")
        } catch {
            #expect(error.code == row.code, "\(error.message)")
        }
    }

    @Test("a cancel's URL carries its flags and protocol=int_default")
    func cancelURL() throws {
        let command = try CommandDecoder().decode(
            Array(#"{\#(cancel),"referenceNumber":"60646","show_receipt":false}"#.utf8))
        let url = RequestURL.build(
            try #require(command.terminal), lane: LaneSettings(merchantKey: "K", appId: "a.b", platform: .ios))
        let parameters = RequestURL.parse(url)
        #expect(parameters.contains(Parameter("show_receipt", "false")))
        #expect(parameters.contains(Parameter("protocol", "int_default")))
    }
}
