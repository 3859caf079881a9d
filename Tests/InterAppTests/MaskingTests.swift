import InterApp
import Testing

@Suite("Masking")
struct MaskingTests {
    @Test(
        "card numbers keep the first 6 and last 4 digits",
        arguments: [
            ("4792751234569999", "479275******9999"), ("479275123456", "479275**3456"),
            ("4792751234569999123", "479275*********9123"), ("479275******9999", "479275******9999"),
            ("47927512345", "47927512345"), ("", ""), ("VISA 4792751234569999", "VISA 479275******9999"),
            ("4792-7512-3456-9999", "4792-75**-****-9999"), ("4792 7512 3456 9999", "4792 75** **** 9999"),
            ("4792  7512 3456 9999", "4792  7512 34** 9999"), ("479275XXXXXX9999", "479275XXXXXX9999"),
            ("47927512345699991234", "479275**********1234"),
        ])
    func maskCardNumber(input: String, expected: String) {
        #expect(Masking.maskCardNumber(input) == expected)
    }

    @Test("which names are secrets and card-number fields")
    func names() {
        #expect(Masking.isSecret("merchantKey"))
        #expect(Masking.isSecret("ISV_clientSecret"))
        #expect(Masking.isSecret("isv_clientsecret"))
        #expect(!Masking.isSecret("ISV_clientId"))
        #expect(!Masking.isSecret("merchantKeys"))
        #expect(Masking.isCardNumberField("accountNumber"))
        #expect(Masking.isCardNumberField("account_number"))
        #expect(Masking.isCardNumberField("PAN"))
        #expect(Masking.isCardNumberField("cardNumber"))
        #expect(!Masking.isCardNumberField("orderCode"))
        #expect(!Masking.isCardNumberField("cardType"))
    }

    @Test(
        "redactSecrets hides secrets and card numbers in any URL, leaving the rest",
        arguments: [
            (
                "vivapayclient://pay/v1?merchantKey=SG23&appId=a&action=sale&ISV_clientSecret=s%26x&amount=1",
                "vivapayclient://pay/v1?merchantKey=***&appId=a&action=sale&ISV_clientSecret=***&amount=1"
            ),
            (
                "x://r?status=success&accountNumber=4792751234569999&orderCode=9256110059000200",
                "x://r?status=success&accountNumber=479275******9999&orderCode=9256110059000200"
            ),
            ("x://r?status=success& merchantKey =k", "x://r?status=success& merchantKey =***"),
            ("x://r?merchant%4Bey=k", "x://r?merchant%4Bey=***"),
            ("merchantKey=k&a=b", "merchantKey=***&a=b"),
            (
                "x://r?status=success&accountNumber=479275******9999",
                "x://r?status=success&accountNumber=479275******9999"
            ),
            ("no secrets here", "no secrets here"),
        ])
    func redact(url: String, expected: String) {
        #expect(Masking.redactSecrets(in: url) == expected)
    }

    @Test("an unmasked PAN in a callback never reaches fields or results")
    func callbackMasking() throws {
        let callback = try CallbackParser.parse(
            "x://result?status=success&action=sale&accountNumber=4792751234569999&cardNumber=5374890000001831")
        #expect(!callback.fields.contains { $0.value.contains("4792751234569999") })
        #expect(callback.result["accountNumber"] == "479275******9999")
        #expect(callback.result["cardNumber"] == "537489******1831")
    }
}
