import InterApp
import Testing

/// The fingerprint is written straight to bytes; these pin it to its definition: the command's JSON object with
/// integers in plain decimal and the secret as `"***"`, serialized with sorted keys.
@Suite("Command fingerprint, against its definition")
struct FingerprintReferenceTests {
    @Test(
        "equals the command re-serialized with sorted keys",
        arguments: [
            #"{"id":"c1","lane":"l","action":"sale","amount":1200}"#,
            #"{"tipAmount":0,"amount":1,"action":"sale","lane":"lane-é","id":"Z9","timeoutMs":600000}"#,
            #"{"id":"c2","lane":"l","action":"sale","amount":4599,"withInstallments":true,"preferredInstallments":3,"ISV_amount":50,"ISV_clientId":"isv","ISV_clientSecret":"s3cr3t","ISV_sourceCode":"1234","ISV_customerTrns":"Café \"crème\" \\ tab\t\u0001 \ud83d\ude00 / end"}"#,
            #"{"id":"c3","lane":"l","action":"cancel","amount":1200,"referenceNumber":"833121","orderCode":"9256110059000200","show_receipt":false}"#,
            #"{"id":"q1","action":"status","ref":"c1"}"#,
            #"{"id":"q2","action":"resolve","ref":"c1","outcome":"success","note":"seen on the terminal's screen"}"#,
        ])
    func matchesDefinition(json: String) throws {
        let command = try Fixture.decode(json)
        guard case .object(let object) = try JSONValue.parse(json) else {
            Issue.record("not an object")
            return
        }
        var canonical = JSONObject()
        for (key, value) in object.pairs {
            canonical[key] =
                Masking.isSecret(key)
                ? .string(Masking.redacted) : value.intValue.map { .number(JSONNumber($0)) } ?? value
        }
        let expected = String(decoding: JSONValue.object(canonical).serialized(sortedKeys: true), as: UTF8.self)
        #expect(command.fingerprint == expected)
    }
}
