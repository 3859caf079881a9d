import Foundation
import TerminalSimulator
import Testing
import VivaCloud

@Suite("Secrets and tokens never appear in an error or a log line")
struct SecrecyTests {
    @Test("through successes, refusals, backoffs and failures, no secret or token is logged or in an error")
    func nothingLeaks() async throws {
        var faults = CloudFaults()
        faults.retryAfterSeconds = nil
        try await withCloud(faults: faults) { cloud in
            var errors: [VivaCloudError] = []
            let entry = try #require(cloud.ledger.recordSale(amount: 1000, merchantTrns: "a", terminalId: "1"))
            _ = try await cloud.client.transaction(id: entry.transactionId)
            cloud.backOffice.revokeTokens()
            _ = try await cloud.client.transaction(id: entry.transactionId)
            cloud.backOffice.faults.script = [429, 500]
            _ = try await cloud.client.transactions(onDay: String(entry.insDate.prefix(10)))
            cloud.backOffice.faults.script = [500, 500, 500, 500]
            do throws(VivaCloudError) {
                _ = try await cloud.client.transaction(id: entry.transactionId)
            } catch { errors.append(error) }
            cloud.backOffice.faults.tokenExpiresAfterMs = 0
            cloud.backOffice.revokeTokens()
            do throws(VivaCloudError) {
                _ = try await cloud.client.transaction(id: entry.transactionId)
            } catch { errors.append(error) }
            do throws(VivaCloudError) {
                _ = try await cloud.client.transaction(id: "missing")
            } catch { errors.append(error) }

            #expect(errors.count == 3)
            #expect(cloud.backOffice.issuedTokens.count >= 3)
            let logs = cloud.logs.all
            #expect(!logs.isEmpty)
            for secret in cloud.secrets {
                for line in logs { #expect(!line.contains(secret), "a log line holds a secret or token: \(line)") }
                for error in errors {
                    #expect(!error.description.contains(secret))
                    #expect(!String(reflecting: error).contains(secret))
                }
            }
            // Nor the Basic auth values, encoded.
            let basic = Data("\(CloudFixture.credentials.clientId):\(CloudFixture.credentials.clientSecret)".utf8)
                .base64EncodedString()
            #expect(logs.allSatisfy { !$0.contains(basic) })
        }
    }
}
