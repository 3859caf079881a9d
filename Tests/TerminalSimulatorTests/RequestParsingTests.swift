import Foundation
import Testing

@testable import TerminalSimulator

@Suite("Request parsing agrees with URLComponents")
struct RequestParsingTests {
    static let valid = [
        "vivapayclient://pay/v1?merchantKey=SG23323424EXS3&appId=com.example.pos&action=sale&amount=1200"
            + "&tipAmount=200&callback=interapp-callback",
        "vivapayclient://pay/v1?callback=mycallbackscheme%3A%2F%2Fresult&clientTransactionId=a%2Bb%20c%26d%3De",
        "vivapayclient://pay/v1?clientTransactionId=a+b&x=%C3%A9%F0%9F%98%80&empty=&flag&&a=b=c",
        "VivaPayClient://PAY/v1?action=abort#fragment&ignored=1",
        "vivapayclient://pay/v1",
        "vivapayclient://pay/v1?",
        "scheme:opaque?x=1",
        "https://user@host:8080/a/b;c?q=1&q=2&r=~!$'()*,;:@/?",
    ]

    @Test("same names and values as URLComponents, + kept as a plus", arguments: valid)
    func agrees(url: String) throws {
        let components = try #require(URLComponents(string: url))
        let expected = (components.percentEncodedQueryItems ?? []).compactMap { item -> QueryParameter? in
            guard !item.name.isEmpty else { return nil }
            return QueryParameter(
                name: item.name.removingPercentEncoding ?? item.name,
                value: item.value.map { $0.removingPercentEncoding ?? $0 } ?? "")
        }
        let parsed = try RequestParsing.parse(url).get()
        #expect(parsed.parameters == expected)
        #expect(parsed.scheme == components.scheme)
        #expect(parsed.path == components.percentEncodedPath)
        #expect(
            parsed.host
                == (components.percentEncodedHost.map { host in
                    var authority = host
                    if let user = components.percentEncodedUser { authority = user + "@" + authority }
                    if let port = components.port { authority += ":\(port)" }
                    return authority
                } ?? ""))
    }

    @Test("the first value wins; a plus is a plus")
    func firstValue() throws {
        let parsed = try RequestParsing.parse("vivapayclient://pay/v1?amount=1&amount=2&id=a+b%2Bc").get()
        #expect(parsed.value("amount") == "1")
        #expect(parsed.value("id") == "a+b+c")
        #expect(parsed.isVivaPayRequest)
    }

    @Test(
        "strings iOS would not make a URL of are refused",
        arguments: [
            "vivapayclient://pay/v1?amount=12 00",
            "vivapayclient://pay/v1?amount=%2",
            "vivapayclient://pay/v1?amount=%G1",
            "vivapayclient://pay/v1?name=\u{e9}",
            "vivapayclient://pay/v1?a=<b>",
            "vivapayclient://pay/v1?a=1#b#c",
            "://pay/v1",
            "1abc://x",
            "no scheme",
        ])
    func refused(url: String) {
        #expect(throws: RequestParseError.self) { try RequestParsing.parse(url).get() }
        #expect(
            URLComponents(string: url)?.scheme == nil || url.contains("#b#") || url.contains(" ") || url.contains("%")
                || url.contains("\u{e9}") || url.contains("<"))
    }

    @Test("a decoded value that is not UTF-8 is refused")
    func notUTF8() {
        #expect(throws: RequestParseError.notUTF8) { try RequestParsing.parse("vivapayclient://pay/v1?a=%FF").get() }
    }
}
